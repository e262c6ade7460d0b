/* The consumer API's lifecycle (<xsdt/consumer.h>): open, select "jc:::*"
 * in jump mode, set a buffer size, go, fire from THREADS threads, work,
 * stop, drain, aggregate, close. Every record carries its probe, its
 * arguments and the kernel id of the thread that fired it, each thread's
 * records oldest first; count() per probe equals the fires; nothing is
 * recorded after stop; no drops.
 *
 * Usage: consumer THREADS (1: the main thread fires; 2: two new threads) */
#include "jump-test.h"

#include <xsdt/consumer.h>

#include <pthread.h>
#include <sys/syscall.h>

SDT_PROVIDER_DEFINE(jc);
SDT_PROBE_DEFINE2(jc, c, f, tick, "int", "int");
SDT_PROBE_DEFINE0(jc, c, f, tock);
SDT_PROBE_DEFINE1(jc, c, f, idle, "long"); /* selected, never fired */

#define TICKS 200 /* per thread; a tock every fourth tick */
#define MAX_THREADS 2

JT_NOIPA void fire_tick(int t, int i) { SDT_PROBE2(jc, c, f, tick, t, i); }
JT_NOIPA void fire_tock(void) { SDT_PROBE0(jc, c, f, tock); }

static uint64_t tids[MAX_THREADS];
static int nthreads;

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  tids[t] = (uint64_t)syscall(SYS_gettid);
  for (int i = 0; i < TICKS; ++i) {
    fire_tick(t, i);
    if (i % 4 == 0)
      fire_tock();
  }
  return NULL;
}

struct seen {
  long tick, tock, other, bad, out_of_order, wrong_tid;
  int next[MAX_THREADS]; /* the next tick each thread must record */
};

static int thread_of(uint64_t tid) {
  for (int t = 0; t < nthreads; ++t)
    if (tids[t] == tid)
      return t;
  return -1;
}

static int consume(const xsdt_record *r, void *arg) {
  struct seen *s = (struct seen *)arg;
  const xsdt_probedesc *p = r->probe;
  if (p->kind != XSDT_PROBE_SDT || p->mode != XSDT_MODE_JUMP ||
      r->argc != p->argc) {
    printf("FAIL record of %s: kind %d mode %d argc %d/%d\n", p->id,
           (int)p->kind, (int)p->mode, r->argc, p->argc);
    ++s->bad;
  }
  int t = thread_of(r->tid);
  if (t < 0) {
    printf("FAIL record of %s from unknown thread %llu\n", p->id,
           (unsigned long long)r->tid);
    ++s->wrong_tid;
    return XSDT_CONSUME_NEXT;
  }
  if (strcmp(p->id, "jc:c:f:tick") == 0) {
    ++s->tick;
    if (r->argc != 2 || r->args[0] != (uint64_t)t) {
      printf("FAIL tick of thread %d carries thread %llu\n", t,
             (unsigned long long)r->args[0]);
      ++s->wrong_tid;
    } else if (r->args[1] != (uint64_t)s->next[t]) {
      printf("FAIL thread %d: tick %llu, want %d\n", t,
             (unsigned long long)r->args[1], s->next[t]);
      ++s->out_of_order;
    }
    s->next[t] = (int)r->args[1] + 1;
  } else if (strcmp(p->id, "jc:c:f:tock") == 0) {
    ++s->tock;
  } else {
    printf("FAIL record of %s\n", p->id);
    ++s->other;
  }
  return XSDT_CONSUME_NEXT;
}

struct counts {
  uint64_t tick, tock, idle;
  int probes;
};

static int visit(const xsdt_probedesc *p, uint64_t count, void *arg) {
  struct counts *c = (struct counts *)arg;
  ++c->probes;
  if (strcmp(p->id, "jc:c:f:tick") == 0)
    c->tick = count;
  else if (strcmp(p->id, "jc:c:f:tock") == 0)
    c->tock = count;
  else if (strcmp(p->id, "jc:c:f:idle") == 0)
    c->idle = count;
  else
    printf("FAIL count of unexpected probe %s\n", p->id);
  return 0;
}

int main(int argc, char **argv) {
  nthreads = argc > 1 ? atoi(argv[1]) : 0;
  if (nthreads < 1 || nthreads > MAX_THREADS) {
    printf("usage: consumer 1|2\n");
    return 2;
  }
  int e = 0;
  RT_CHECK(xsdt_open(XSDT_VERSION + 1, &e) == NULL);
  printf("open version %d: %s\n", XSDT_VERSION + 1,
         xsdt_status_name((xsdt_status)e));

  xsdt_hdl *h = xsdt_open(XSDT_VERSION, &e);
  RT_CHECK(h != NULL && e == XSDT_OK);
  if (!h)
    return rt_finish();
  RT_CHECK(xsdt_enable_probes(h, "nosuch:::*", XSDT_MODE_JUMP) == -1);
  printf("select nosuch:::*: %s: %s\n",
         xsdt_status_name((xsdt_status)xsdt_errno(h)),
         xsdt_errmsg(h, xsdt_errno(h)));
  int n = xsdt_enable_probes(h, "jc:::*", XSDT_MODE_JUMP);
  printf("select jc:::*: %d probes\n", n);
  RT_CHECK(n == 3);
  RT_CHECK(xsdt_setopt(h, "bufsize", "256k") == 0);
  const char *bufsize = xsdt_getopt(h, "bufsize");
  printf("bufsize %s\n", bufsize ? bufsize : "(null)");
  RT_CHECK(xsdt_go(h) == 0);

  if (nthreads == 1) {
    worker((void *)0);
  } else {
    pthread_t threads[MAX_THREADS];
    for (int t = 0; t < nthreads; ++t)
      RT_CHECK(pthread_create(&threads[t], NULL, worker,
                              (void *)(intptr_t)t) == 0);
    for (int t = 0; t < nthreads; ++t)
      pthread_join(threads[t], NULL);
  }

  struct seen s;
  memset(&s, 0, sizeof s);
  RT_CHECK(xsdt_work(h, consume, &s) == XSDT_WORKSTATUS_OKAY);
  RT_CHECK(xsdt_stop(h) == 0);
  /* After stop: fires are not recorded; the buffers drain to DONE. */
  fire_tick(0, TICKS);
  fire_tock();
  xsdt_workstatus status = XSDT_WORKSTATUS_OKAY;
  for (int k = 0; k < 10 && status == XSDT_WORKSTATUS_OKAY; ++k)
    status = xsdt_work(h, consume, &s);
  RT_CHECK(status == XSDT_WORKSTATUS_DONE);

  struct counts c;
  memset(&c, 0, sizeof c);
  RT_CHECK(xsdt_aggregate_walk(h, visit, &c) == 0);
  uint64_t drops = xsdt_drops(h);
  xsdt_close(h);

  const long ticks = (long)nthreads * TICKS, tocks = (long)nthreads * TICKS / 4;
  printf("fired from %d thread%s: tick %ld, tock %ld\n", nthreads,
         nthreads == 1 ? "" : "s", ticks, tocks);
  printf("records: tick %ld, tock %ld, other %ld; bad %ld, out of order %ld, "
         "wrong thread %ld\n",
         s.tick, s.tock, s.other, s.bad, s.out_of_order, s.wrong_tid);
  printf("count(): %d probes: tick %llu, tock %llu, idle %llu\n", c.probes,
         (unsigned long long)c.tick, (unsigned long long)c.tock,
         (unsigned long long)c.idle);
  printf("drops %llu\n", (unsigned long long)drops);
  RT_CHECK(s.tick == ticks && s.tock == tocks);
  RT_CHECK((long)c.tick == ticks && (long)c.tock == tocks && c.idle == 0);
  RT_CHECK(!s.other && !s.bad && !s.out_of_order && !s.wrong_tid);
  for (int t = 0; t < nthreads; ++t)
    RT_CHECK(s.next[t] == TICKS);
  RT_CHECK(drops == 0);
  return rt_finish();
}
