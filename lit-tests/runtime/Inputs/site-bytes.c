/* The bytes at a site, read from live memory: the NOP before enable, the
 * trap while enabled, and exactly the original NOP after disable. */
#include "rt-test.h"

static int hits;
static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++hits;
}

__attribute__((noinline)) void fire(int x) { XSDT_PROBE(bytes, site, x); }

int main(void) {
  xsdt_error err;
  struct rt_find f = rt_find_probe("bytes", "site");
  RT_CHECK(f.count == 1);
  uintptr_t pc = f.pc[0];
  rt_print_bytes("before", pc);
  RT_CHECK(rt_bytes_are(pc, rt_nop));
  RT_EXPECT_RESULT(xsdt_enable("bytes:site", on_hit, NULL, &err), 1, &err);
  rt_print_bytes("enabled", pc);
  RT_CHECK(rt_bytes_are(pc, rt_trap));
  fire(1);
  RT_CHECK(hits == 1);
  RT_EXPECT_RESULT(xsdt_disable("bytes:site", &err), 1, &err);
  rt_print_bytes("disabled", pc);
  RT_CHECK(rt_bytes_are(pc, rt_nop));
  fire(2);
  RT_CHECK(hits == 1);
  /* A second cycle patches and restores the same way. */
  RT_EXPECT_RESULT(xsdt_enable("bytes:*", on_hit, NULL, &err), 1, &err);
  RT_CHECK(rt_bytes_are(pc, rt_trap));
  fire(3);
  RT_EXPECT_RESULT(xsdt_disable("*:site", &err), 1, &err);
  RT_CHECK(rt_bytes_are(pc, rt_nop));
  printf("hits %d\n", hits);
  return rt_finish();
}
