/* A program that exits with a probe enabled: every object's destructor
 * runs at exit, the probe header's hook among them, and none of them is
 * being unloaded, so libxsdt must leave the sites alone (restoring them
 * would write code and wait for the handlers of threads still running).
 * A destructor of lower priority, which runs after the hook's, reports
 * what the site holds then. */
#include "jump-test.h"

SDT_PROVIDER_DEFINE(ex);
SDT_PROBE_DEFINE1(ex, m, f, hit, "int");

static int hits;
static struct jt_sites sites;

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)user;
  if (a[0] == 42)
    ++hits;
}

JT_NOIPA void fire(int v) { SDT_PROBE1(ex, m, f, hit, v); }

__attribute__((destructor(101))) static void after_the_hooks(void) {
  printf("at exit the site holds %s\n",
         jt_is_nop(sites.s[0].site) ? "the NOP" : "the enabled bytes");
}

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  jt_list_sites("ex:", &sites);
  RT_CHECK(sites.n == 1);
  RT_CHECK(xsdt_sdt_enable("ex:::", mode, on_hit, NULL, &jt_err) == 1);
  fire(42);
  printf("hits while enabled %d\n", hits);
  return rt_finish();
}
