/* SystemTap's own sites (a 1-byte `nop` on x86, a 2-byte `c.nop` on riscv
 * with RVC, `nop` on aarch64) are enabled in trap mode too: hit with the
 * value passed, then restored to their exact bytes. "*:*" also covers the
 * sys/sdt.h probes that libc and libstdc++ carry. */
#include <sys/sdt.h>
#include <string.h>

#include "rt-test.h"

static int hits;
static long long last;
static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)u;
  if (strcmp(p->provider, "stap") != 0)
    return;
  ++hits;
  if (argc == 1 && a[0].valid)
    last = (long long)a[0].bits;
}

__attribute__((noinline)) void fire(int x) { STAP_PROBE1(stap, site, x); }

int main(void) {
  xsdt_error err;
  struct rt_find f = rt_find_probe("stap", "site");
  RT_CHECK(f.count == 1);
  uintptr_t pc = f.pc[0];
  unsigned char original[RT_SITE_SIZE];
  memcpy(original, (const void *)pc, sizeof original);
  rt_print_bytes("before", pc);
  RT_EXPECT_RESULT(xsdt_enable("stap:site", on_hit, NULL, &err), 1, &err);
  rt_print_bytes("enabled", pc);
  fire(-42);
  RT_CHECK(hits == 1);
  RT_CHECK(last == -42);
  RT_EXPECT_RESULT(xsdt_disable("stap:site", &err), 1, &err);
  RT_CHECK(memcmp(original, (const void *)pc, sizeof original) == 0);
  fire(7);
  RT_CHECK(hits == 1);

  int enabled = xsdt_enable("*:*", on_hit, NULL, &err);
  if (enabled < 0)
    printf("enable *:* failed: %s\n", err.message);
  RT_CHECK(enabled >= 1);
  fire(5);
  RT_CHECK(hits == 2);
  RT_CHECK(last == 5);
  RT_CHECK(xsdt_disable("*:*", &err) == enabled);
  RT_CHECK(memcmp(original, (const void *)pc, sizeof original) == 0);
  printf("hits %d\n", hits);
  return rt_finish();
}
