/* Patterns that match nothing or are malformed, disabling what is not
 * enabled: clean errors, nothing patched. */
#include "rt-test.h"

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)argc, (void)a, (void)u;
}

__attribute__((noinline)) void fire(int x) { XSDT_PROBE(errs, site, x); }

static void expect(int got, xsdt_error *err, xsdt_status want) {
  RT_CHECK(got == -1);
  RT_CHECK(err->code == want);
  printf("%s: %s\n", xsdt_status_name(err->code), err->message);
}

int main(void) {
  xsdt_error err;
  struct rt_find f = rt_find_probe("errs", "site");
  RT_CHECK(f.count == 1);
  expect(xsdt_enable("errs:nosuch", on_hit, NULL, &err), &err,
         XSDT_ERR_NO_MATCH);
  expect(xsdt_enable("nosuch:*", on_hit, NULL, &err), &err, XSDT_ERR_NO_MATCH);
  expect(xsdt_enable("errs:site:x", on_hit, NULL, &err), &err,
         XSDT_ERR_BAD_PATTERN);
  expect(xsdt_enable("errs", on_hit, NULL, &err), &err, XSDT_ERR_BAD_PATTERN);
  expect(xsdt_enable(":site", on_hit, NULL, &err), &err, XSDT_ERR_BAD_PATTERN);
  expect(xsdt_disable("errs:site", &err), &err, XSDT_ERR_NOT_ENABLED);
  RT_CHECK(rt_bytes_are(f.pc[0], rt_nop));
  fire(1);
  return rt_finish();
}
