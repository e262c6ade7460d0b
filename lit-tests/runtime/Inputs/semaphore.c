/* The semaphore counts enabled sites: XSDT_PROBE_ENABLED is true while the
 * probe is enabled and false after, guarded arguments are evaluated only
 * then, and a semaphore shared by two sites counts both. */
#include "rt-test.h"

XSDT_SEMAPHORE(sem, guarded);
XSDT_SEMAPHORE(sem, shared);

static int hits, evaluated;
static int64_t last;

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)u;
  ++hits;
  if (argc > 0)
    last = (int64_t)a[0].bits;
}

static int expensive(int x) {
  ++evaluated;
  return x * 10;
}

__attribute__((noinline)) void fire_guarded(int x) {
  XSDT_PROBE_GUARDED(sem, guarded, expensive(x));
}
__attribute__((noinline)) void fire_shared_1(int x) {
  XSDT_PROBE_GUARDED(sem, shared, x);
}
__attribute__((noinline)) void fire_shared_2(int x) {
  XSDT_PROBE_GUARDED(sem, shared, -x);
}

int main(void) {
  xsdt_error err;
  struct rt_find f = rt_find_probe("sem", "guarded");
  RT_CHECK(f.count == 1);
  RT_CHECK(f.semaphore == (uintptr_t)&sem_guarded_semaphore);

  RT_CHECK(!XSDT_PROBE_ENABLED(sem, guarded));
  fire_guarded(1);
  RT_CHECK(evaluated == 0 && hits == 0);
  RT_EXPECT_RESULT(xsdt_enable("sem:guarded", on_hit, NULL, &err), 1, &err);
  RT_CHECK(XSDT_PROBE_ENABLED(sem, guarded));
  RT_CHECK(sem_guarded_semaphore == 1);
  fire_guarded(4);
  RT_CHECK(evaluated == 1 && hits == 1 && last == 40);
  RT_EXPECT_RESULT(xsdt_disable("sem:guarded", &err), 1, &err);
  RT_CHECK(!XSDT_PROBE_ENABLED(sem, guarded));
  fire_guarded(5);
  RT_CHECK(evaluated == 1 && hits == 1);
  printf("guarded: evaluated %d, hits %d\n", evaluated, hits);

  RT_CHECK(rt_find_probe("sem", "shared").count == 2);
  RT_EXPECT_RESULT(xsdt_enable("sem:shared", on_hit, NULL, &err), 2, &err);
  RT_CHECK(sem_shared_semaphore == 2);
  fire_shared_1(7);
  RT_CHECK(last == 7);
  fire_shared_2(7);
  RT_CHECK(last == -7);
  RT_EXPECT_RESULT(xsdt_disable("sem:shared", &err), 2, &err);
  RT_CHECK(sem_shared_semaphore == 0);
  RT_CHECK(!XSDT_PROBE_ENABLED(sem, shared));
  printf("shared: hits %d, semaphore %d\n", hits, (int)sem_shared_semaphore);
  return rt_finish();
}
