/* Four threads run through an enabled site at once; every hit is counted
 * exactly and every argument is the hitting thread's own. */
#include "rt-test.h"

#include <pthread.h>

#ifndef ITERATIONS
#define ITERATIONS 1000
#endif
#define THREADS 4

static int hits[THREADS];
static int bad_args;

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)u;
  if (argc != 3 || a[0].bits >= THREADS) {
    __atomic_fetch_add(&bad_args, 1, __ATOMIC_RELAXED);
    return;
  }
  int t = (int)a[0].bits;
  /* arg 2 is iteration * 3 + thread, arg 1 the iteration */
  if ((int64_t)a[2].bits != (int64_t)a[1].bits * 3 + t)
    __atomic_fetch_add(&bad_args, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&hits[t], 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void fire(int t, int i, long long check) {
  XSDT_PROBE(mt, site, t, i, check);
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  for (int i = 0; i < ITERATIONS; ++i)
    fire(t, i, (long long)i * 3 + t);
  return NULL;
}

int main(void) {
  xsdt_error err;
  RT_EXPECT_RESULT(xsdt_enable("mt:site", on_hit, NULL, &err), 1, &err);
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t)
    pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
  for (int t = 0; t < THREADS; ++t)
    pthread_join(threads[t], NULL);
  int total = 0;
  for (int t = 0; t < THREADS; ++t) {
    RT_CHECK(hits[t] == ITERATIONS);
    total += hits[t];
  }
  RT_CHECK(bad_args == 0);
  RT_CHECK(total == THREADS * ITERATIONS);
  printf("total %d, bad %d\n", total, bad_args);
  RT_EXPECT_RESULT(xsdt_disable("mt:site", &err), 1, &err);
  return rt_finish();
}
