/* 4 threads, each 100000 hits of myapp:work (t, i) for i = 0..99999, then
 * one myapp:mark (t) each. Waits on the threads, prints the sum of every
 * i it passed. */
#include <xsdt/usdt.h>
#include <pthread.h>
#include <stdio.h>

enum { kThreads = 4, kHits = 100000 };

__attribute__((noinline)) static long work(long t, long i) {
  XSDT_PROBE(myapp, work, t, i);
  return i;
}

static void *run(void *arg) {
  long t = (long)arg, sum = 0;
  for (long i = 0; i < kHits; ++i)
    sum += work(t, i);
  XSDT_PROBE(myapp, mark, t);
  return (void *)sum;
}

int main(void) {
  pthread_t threads[kThreads];
  long total = 0;
  for (long t = 0; t < kThreads; ++t)
    pthread_create(&threads[t], NULL, run, (void *)t);
  for (long t = 0; t < kThreads; ++t) {
    void *sum;
    pthread_join(threads[t], &sum);
    total += (long)sum;
  }
  printf("total %ld\n", total);
  return 0;
}
