/* A site that no longer holds the NOP (another patcher was here): enabling
 * a pattern that covers it fails cleanly, names the probe, the address and
 * the bytes seen, and patches NOTHING, not even the healthy sites. */
#include "rt-test.h"

static int hits;
static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++hits;
}

__attribute__((noinline)) void fire_a(int x) { XSDT_PROBE(foreign, a, x); }
__attribute__((noinline)) void fire_b(int x) { XSDT_PROBE(foreign, b, x); }
__attribute__((noinline)) void fire_c(int x) { XSDT_PROBE(foreign, c, x); }

int main(void) {
  xsdt_error err;
  uintptr_t a = rt_find_probe("foreign", "a").pc[0];
  uintptr_t b = rt_find_probe("foreign", "b").pc[0];
  uintptr_t c = rt_find_probe("foreign", "c").pc[0];
  RT_CHECK(a && b && c);
  rt_poke(b, rt_foreign);
  RT_CHECK(rt_bytes_are(b, rt_foreign));

  RT_EXPECT_RESULT(xsdt_enable("foreign:*", on_hit, NULL, &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_UNEXPECTED_BYTES);
  char where[64];
  snprintf(where, sizeof where, "%#lx", (unsigned long)b);
  RT_CHECK(strstr(err.message, "foreign:b") != NULL);
  RT_CHECK(strstr(err.message, where) != NULL);
  printf("%s\n", xsdt_status_name(err.code));
  printf("message: %s\n", err.message);
  RT_CHECK(rt_bytes_are(a, rt_nop));
  RT_CHECK(rt_bytes_are(b, rt_foreign));
  RT_CHECK(rt_bytes_are(c, rt_nop));
  fire_a(1);
  fire_b(2);
  fire_c(3);
  RT_CHECK(hits == 0);
  /* Nothing was left enabled either. */
  RT_EXPECT_RESULT(xsdt_disable("foreign:*", &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_NOT_ENABLED);

  /* The healthy sites alone still enable and work. */
  RT_EXPECT_RESULT(xsdt_enable("foreign:[ac]", on_hit, NULL, &err), 2, &err);
  fire_a(1);
  fire_b(2);
  fire_c(3);
  RT_CHECK(hits == 2);
  RT_EXPECT_RESULT(xsdt_disable("foreign:*", &err), 2, &err);
  RT_CHECK(rt_bytes_are(a, rt_nop) && rt_bytes_are(c, rt_nop));
  printf("hits %d\n", hits);
  return rt_finish();
}
