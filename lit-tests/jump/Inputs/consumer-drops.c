/* Drop accounting when the consumer runs out of room: four threads, two
 * buffers ("nthreads" 2) of 64 bytes ("bufsize" 64). A record of a
 * one-argument probe takes 16 + 8 bytes (<xsdt/consumer.h>), so a buffer
 * holds two, and later hits of its thread are dropped; the two threads
 * that find no buffer left drop every hit. The threads run one after the
 * other, so which thread claims which buffer is known. What must hold:
 * each buffered thread's first two hits are its records, every other hit
 * is a drop, xsdt_drops() is their total, the drop handler reports them
 * per buffer (with the thread's id) and for the threads without one (id
 * 0), and count() counts every hit.
 *
 * Usage: consumer-drops jump|trap */
#include "jump-test.h"

#include <xsdt/consumer.h>

#include <pthread.h>
#include <sys/syscall.h>

SDT_PROVIDER_DEFINE(jd);
SDT_PROBE_DEFINE1(jd, c, f, hit, "long");

#define THREADS 4
#define BUFFERS "2"
#define HITS 10              /* per thread */
#define RECORDS_PER_BUFFER 2 /* 64 / (16 + 8) */

JT_NOIPA void fire_hit(long value) { SDT_PROBE1(jd, c, f, hit, value); }

static uint64_t tids[THREADS];

static void *worker(void *arg) {
  long t = (long)(intptr_t)arg;
  tids[t] = (uint64_t)syscall(SYS_gettid);
  for (long i = 0; i < HITS; ++i)
    fire_hit(t * 100 + i);
  return NULL;
}

static int thread_of(uint64_t tid) {
  for (int t = 0; t < THREADS; ++t)
    if (tids[t] == tid)
      return t;
  return -1;
}

struct seen {
  int records[THREADS];
  int bad;
};

static int consume(const xsdt_record *r, void *arg) {
  struct seen *s = (struct seen *)arg;
  int t = thread_of(r->tid);
  /* A buffered thread's records are its first hits, in order. */
  if (t < 0 || r->argc != 1 ||
      r->args[0] != (uint64_t)(t * 100 + s->records[t])) {
    printf("FAIL record of thread %d: argc %d, arg %llu\n", t, r->argc,
           (unsigned long long)r->args[0]);
    ++s->bad;
    return XSDT_CONSUME_NEXT;
  }
  ++s->records[t];
  return XSDT_CONSUME_NEXT;
}

struct reports {
  uint64_t by_thread[THREADS];
  uint64_t unbuffered;
  int unknown;
};

static void on_drop(uint64_t tid, uint64_t drops, void *arg) {
  struct reports *r = (struct reports *)arg;
  if (tid == 0) {
    r->unbuffered += drops;
    return;
  }
  int t = thread_of(tid);
  if (t < 0) {
    printf("FAIL drops reported for unknown thread %llu\n",
           (unsigned long long)tid);
    ++r->unknown;
    return;
  }
  r->by_thread[t] += drops;
}

static int visit(const xsdt_probedesc *p, uint64_t count, void *arg) {
  (void)p;
  *(uint64_t *)arg = count;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "jump") && strcmp(argv[1], "trap"))) {
    printf("usage: consumer-drops jump|trap\n");
    return 2;
  }
  xsdt_mode mode =
      strcmp(argv[1], "jump") == 0 ? XSDT_MODE_JUMP : XSDT_MODE_TRAP;
  xsdt_hdl *h = xsdt_open(XSDT_VERSION, NULL);
  RT_CHECK(h != NULL);
  if (!h)
    return rt_finish();
  RT_CHECK(xsdt_enable_probes(h, "jd:::hit", mode) == 1);
  RT_CHECK(xsdt_setopt(h, "nthreads", BUFFERS) == 0);
  RT_CHECK(xsdt_setopt(h, "bufsize", "64") == 0);
  struct reports reports;
  memset(&reports, 0, sizeof reports);
  RT_CHECK(xsdt_handle_drop(h, on_drop, &reports) == 0);
  RT_CHECK(xsdt_go(h) == 0);

  for (long t = 0; t < THREADS; ++t) {
    pthread_t thread;
    RT_CHECK(pthread_create(&thread, NULL, worker, (void *)(intptr_t)t) == 0);
    pthread_join(thread, NULL);
  }

  struct seen s;
  memset(&s, 0, sizeof s);
  RT_CHECK(xsdt_stop(h) == 0);
  xsdt_workstatus status = XSDT_WORKSTATUS_OKAY;
  for (int k = 0; k < 10 && status == XSDT_WORKSTATUS_OKAY; ++k)
    status = xsdt_work(h, consume, &s);
  RT_CHECK(status == XSDT_WORKSTATUS_DONE);
  uint64_t count = 0;
  RT_CHECK(xsdt_aggregate_walk(h, visit, &count) == 0);
  uint64_t drops = xsdt_drops(h);
  xsdt_close(h);

  printf("mode %s: %d threads x %d hits, %s buffers of %d records\n", argv[1],
         THREADS, HITS, BUFFERS, RECORDS_PER_BUFFER);
  for (int t = 0; t < THREADS; ++t)
    printf("thread %d: records %d, drops reported %llu\n", t, s.records[t],
           (unsigned long long)reports.by_thread[t]);
  printf("drops reported without a buffer: %llu\n",
         (unsigned long long)reports.unbuffered);
  printf("xsdt_drops %llu, count() %llu, bad records %d\n",
         (unsigned long long)drops, (unsigned long long)count, s.bad);
  for (int t = 0; t < THREADS; ++t) {
    const int buffered = t < 2;
    RT_CHECK(s.records[t] == (buffered ? RECORDS_PER_BUFFER : 0));
    RT_CHECK(reports.by_thread[t] ==
             (uint64_t)(buffered ? HITS - RECORDS_PER_BUFFER : 0));
  }
  RT_CHECK(reports.unbuffered == 2 * HITS && !reports.unknown && !s.bad);
  RT_CHECK(drops == THREADS * HITS - 2 * RECORDS_PER_BUFFER);
  RT_CHECK(count == THREADS * HITS);
  return rt_finish();
}
