/* Enabling an enabled probe is XSDT_ERR_ALREADY_ENABLED and changes
 * nothing: the first enable's handler keeps receiving the hits. */
#include "rt-test.h"

static int first, second;
static void on_first(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                     void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++first;
}
static void on_second(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                      void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++second;
}

__attribute__((noinline)) void fire(int x) { XSDT_PROBE(twice, site, x); }
__attribute__((noinline)) void fire_other(int x) {
  XSDT_PROBE(twice, other, x);
}

int main(void) {
  xsdt_error err;
  uintptr_t pc = rt_find_probe("twice", "site").pc[0];
  uintptr_t other = rt_find_probe("twice", "other").pc[0];
  RT_EXPECT_RESULT(xsdt_enable("twice:site", on_first, NULL, &err), 1, &err);
  RT_EXPECT_RESULT(xsdt_enable("twice:site", on_second, NULL, &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_ALREADY_ENABLED);
  printf("%s: %s\n", xsdt_status_name(err.code), err.message);
  /* A pattern covering it and another probe: all or nothing. */
  RT_EXPECT_RESULT(xsdt_enable("twice:*", on_second, NULL, &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_ALREADY_ENABLED);
  RT_CHECK(rt_bytes_are(other, rt_nop));
  RT_CHECK(rt_bytes_are(pc, rt_trap));
  fire(1);
  fire_other(2);
  RT_CHECK(first == 1 && second == 0);
  RT_EXPECT_RESULT(xsdt_disable("twice:*", &err), 1, &err);
  RT_CHECK(rt_bytes_are(pc, rt_nop));
  printf("first %d second %d\n", first, second);
  return rt_finish();
}
