/* Probes of a loaded shared object are listed with its file name and
 * enabled at their run-time (relocated) addresses. */
#include "rt-test.h"

int rtlib_fire(int x, long long y);
int rtlib_enabled(void);

static int hits;
static int64_t args[2];

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)u;
  ++hits;
  for (int i = 0; i < argc && i < 2; ++i)
    args[i] = (int64_t)a[i].bits;
  if (hits == 1)
    printf("hit %s:%s in %s\n", p->provider, p->name,
           strrchr(p->object, '/') ? strrchr(p->object, '/') + 1 : p->object);
}

int main(void) {
  xsdt_error err;
  struct rt_find f = rt_find_probe("rtlib", "hit");
  RT_CHECK(f.count == 1);
  RT_CHECK(rt_bytes_are(f.pc[0], rt_nop));
  RT_EXPECT_RESULT(xsdt_enable("rtlib:*", on_hit, NULL, &err), 2, &err);
  RT_CHECK(rt_bytes_are(f.pc[0], rt_trap));
  RT_CHECK(rtlib_enabled());
  rtlib_fire(-3, -4000000000LL);
  RT_CHECK(hits == 2);
  RT_CHECK(args[0] == -2); /* the guarded probe fired last with x + 1 */
  RT_EXPECT_RESULT(xsdt_disable("rtlib:*", &err), 2, &err);
  RT_CHECK(rt_bytes_are(f.pc[0], rt_nop));
  RT_CHECK(!rtlib_enabled());
  rtlib_fire(1, 2);
  RT_CHECK(hits == 2);
  return rt_finish();
}
