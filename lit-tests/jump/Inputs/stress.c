/* Worker threads run through two SDT sites in a loop while the main thread
 * enables and disables the probes ROUNDS times. Every round must see hits
 * (the patched site is visible to the other threads); once
 * xsdt_sdt_disable() returns no handler is running (every handler that
 * started has finished) and none starts later, checked after every worker
 * has gone through both sites again; the sites hold exactly the NOP again;
 * every hit's arguments are its own thread's.
 *
 * Each round ends as soon as its condition is shown: the main thread waits
 * for the first hit, and after the disable for a worker to complete two more
 * passes through its loop (the second one starts after the disable
 * returned), spinning briefly and then yielding, never sleeping a fixed
 * time. A worker that was not running then (more threads than CPUs) passes
 * the sites later: the next round checks, before its enable, that no
 * handler started since the disable, and after the last round the main
 * thread waits for every worker to pass again.
 *
 * A soak gives the threads and a number of "work" hits each thread must
 * deliver: every enabled window then lasts until each worker has delivered
 * its share of them (HITS * (round + 1) / ROUNDS), so after ROUNDS rounds
 * each thread has delivered at least HITS hits, and every round's disable
 * still finds the workers running through the sites.
 *
 * Usage: stress jump|trap ROUNDS [THREADS [HITS]] */
#include "jump-test.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

SDT_PROVIDER_DEFINE(js);
SDT_PROBE_DEFINE3(js, s, f, work, "int", "int", "long long");
SDT_PROBE_DEFINE0(js, s, f, tick);

/* Two workers by default, and the toggling main thread: more threads than
 * CPUs make every round wait for a time slice. */
#define MAX_THREADS 8
static int threads = 2;

static int stop;
static long entered, finished, bad_args;
/* Loop passes each worker completed: both sites each pass. */
static long passes[MAX_THREADS];
/* "work" hits delivered to each worker's thread (written by that thread's
 * handler only). */
static long work_hits[MAX_THREADS];

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)user;
  long n = __atomic_add_fetch(&entered, 1, __ATOMIC_SEQ_CST);
  if (strcmp(p->name, "work") == 0) {
    /* arg 0 the thread, arg 1 the iteration, arg 2 iteration * 3 + thread */
    if (a[0] >= (uint64_t)threads || a[2] != a[1] * 3 + a[0] || a[3] || a[6])
      __atomic_fetch_add(&bad_args, 1, __ATOMIC_SEQ_CST);
    else
      __atomic_store_n(&work_hits[a[0]], work_hits[a[0]] + 1, __ATOMIC_RELAXED);
  } else if (strcmp(p->name, "tick") != 0 || a[0] || a[1] || a[2]) {
    __atomic_fetch_add(&bad_args, 1, __ATOMIC_SEQ_CST);
  }
  /* Linger now and then, so that a disable often finds a handler running:
   * a short spin, rarely a yield (which makes the disable wait a time
   * slice). */
  if (n % 8 == 0)
    for (int spin = 0; spin < 500; ++spin)
      __atomic_load_n(&stop, __ATOMIC_RELAXED);
  if (n % 1024 == 0)
    sched_yield();
  __atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST);
}

JT_NOIPA void fire_work(int t, int i, long long check) {
  SDT_PROBE3(js, s, f, work, t, i, check);
}
JT_NOIPA void fire_tick(void) { SDT_PROBE0(js, s, f, tick); }

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  for (int i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); ++i) {
    i &= 0xfffffff;
    fire_work(t, i, (long long)i * 3 + t);
    fire_tick();
    __atomic_add_fetch(&passes[t], 1, __ATOMIC_SEQ_CST);
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits until done(arg) holds: a short spin first (the other threads are
 * usually running), then yields so that a preempted thread gets the CPU.
 * False after 30 s. */
static int wait_until(int (*done)(const long *), const long *arg) {
  double deadline = now() + 30;
  for (;;) {
    for (int spin = 0; spin < 2000; ++spin)
      if (done(arg))
        return 1;
    if (now() > deadline)
      return done(arg);
    sched_yield();
  }
}

static int hit_since(const long *start) {
  return __atomic_load_n(&finished, __ATOMIC_SEQ_CST) != *start;
}

/* A worker completed two passes since the snapshot: its second one started
 * after the snapshot was taken, and went through both sites. */
static int one_passed_again(const long *snapshot) {
  for (int t = 0; t < threads; ++t)
    if (__atomic_load_n(&passes[t], __ATOMIC_SEQ_CST) >= snapshot[t] + 2)
      return 1;
  return 0;
}

/* Every worker did. */
static int all_passed_again(const long *snapshot) {
  for (int t = 0; t < threads; ++t)
    if (__atomic_load_n(&passes[t], __ATOMIC_SEQ_CST) < snapshot[t] + 2)
      return 0;
  return 1;
}

static void snapshot_passes(long *snapshot) {
  for (int t = 0; t < threads; ++t)
    snapshot[t] = __atomic_load_n(&passes[t], __ATOMIC_SEQ_CST);
}

/* Every worker delivered at least *share "work" hits. */
static int all_delivered(const long *share) {
  for (int t = 0; t < threads; ++t)
    if (__atomic_load_n(&work_hits[t], __ATOMIC_RELAXED) < *share)
      return 0;
  return 1;
}

static struct jt_sites sites;

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  int rounds = argc > 2 ? atoi(argv[2]) : 0;
  if (argc > 3)
    threads = atoi(argv[3]);
  long hits = argc > 4 ? atol(argv[4]) : 0;
  if (rounds <= 0 || threads <= 0 || threads > MAX_THREADS || hits < 0) {
    printf("usage: stress jump|trap ROUNDS [THREADS [HITS]] (THREADS 1..%d)\n",
           MAX_THREADS);
    return 2;
  }
  jt_list_sites("js:", &sites);
  RT_CHECK(sites.n == 2);

  pthread_t thread[MAX_THREADS];
  for (int t = 0; t < threads; ++t)
    RT_CHECK(pthread_create(&thread[t], NULL, worker, (void *)(intptr_t)t) ==
             0);

  int silent_rounds = 0, running_after_disable = 0, late_hits = 0,
      bad_bytes = 0, api_errors = 0, stalled_rounds = 0;
  /* Handlers entered when the last disable returned. */
  long disabled_at = __atomic_load_n(&entered, __ATOMIC_SEQ_CST);
  long snapshot[MAX_THREADS];
  for (int r = 0; r < rounds; ++r) {
    if (__atomic_load_n(&entered, __ATOMIC_SEQ_CST) != disabled_at) {
      printf("FAIL round %d: a handler started after the previous disable "
             "returned\n", r);
      ++late_hits;
    }
    long start = __atomic_load_n(&finished, __ATOMIC_SEQ_CST);
    if (xsdt_sdt_enable("js:::", mode, on_hit, NULL, &jt_err) != 2) {
      printf("FAIL round %d: enable: %s: %s\n", r,
             xsdt_status_name(jt_err.code), jt_err.message);
      ++api_errors;
      break;
    }
    /* The workers must come through the patched sites; a soak waits for
     * every worker's share of the hits too. */
    long share = (long)((double)hits * (r + 1) / rounds + 0.5);
    if (!wait_until(hit_since, &start)) {
      printf("FAIL round %d: no hit within 30 s while enabled\n", r);
      ++silent_rounds;
    } else if (!wait_until(all_delivered, &share)) {
      printf("FAIL round %d: the workers did not deliver %ld hits each "
             "within 30 s\n", r, share);
      ++silent_rounds;
    }
    if (xsdt_sdt_disable("js:::", &jt_err) != 2) {
      printf("FAIL round %d: disable: %s: %s\n", r,
             xsdt_status_name(jt_err.code), jt_err.message);
      ++api_errors;
      break;
    }
    long e = __atomic_load_n(&entered, __ATOMIC_SEQ_CST);
    long f = __atomic_load_n(&finished, __ATOMIC_SEQ_CST);
    if (e != f) {
      printf("FAIL round %d: %ld handlers still running after disable\n", r,
             e - f);
      ++running_after_disable;
    }
    /* No handler may start once the disable returned: checked after a
     * worker went through both sites again (and for the others at the
     * next round's start). */
    disabled_at = e;
    snapshot_passes(snapshot);
    if (!wait_until(one_passed_again, snapshot)) {
      printf("FAIL round %d: no worker passed the sites within 30 s\n", r);
      ++stalled_rounds;
    }
    if (__atomic_load_n(&entered, __ATOMIC_SEQ_CST) != e) {
      printf("FAIL round %d: a handler started after disable returned\n", r);
      ++late_hits;
    }
    for (int i = 0; i < sites.n; ++i)
      if (!jt_is_nop(sites.s[i].site)) {
        char hex[32];
        printf("FAIL round %d: %s at %#lx holds %s after disable\n", r,
               sites.s[i].id, (unsigned long)sites.s[i].site,
               jt_hex(hex, sizeof hex, sites.s[i].site));
        ++bad_bytes;
      }
  }
  /* The last round's disable: every worker passes the sites again. */
  snapshot_passes(snapshot);
  if (!wait_until(all_passed_again, snapshot)) {
    printf("FAIL after the last round: the workers did not pass the sites "
           "within 30 s\n");
    ++stalled_rounds;
  }
  if (__atomic_load_n(&entered, __ATOMIC_SEQ_CST) != disabled_at) {
    printf("FAIL after the last round: a handler started after the disable "
           "returned\n");
    ++late_hits;
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  for (int t = 0; t < threads; ++t)
    pthread_join(thread[t], NULL);

  long fewest = work_hits[0];
  for (int t = 1; t < threads; ++t)
    if (work_hits[t] < fewest)
      fewest = work_hits[t];
  printf("mode %s, %d rounds, %d threads\n", jt_mode_name(mode), rounds,
         threads);
  printf("hits %ld (at least one per round: %s)\n", finished,
         silent_rounds ? "no" : "yes");
  if (hits)
    printf("work hits per thread at least %ld: %s\n", hits,
           fewest >= hits ? "yes" : "no");
  printf("running after disable %d, started after disable %d, bad bytes %d, "
         "bad args %ld, api errors %d, stalled rounds %d\n",
         running_after_disable, late_hits, bad_bytes, bad_args, api_errors,
         stalled_rounds);
  RT_CHECK(!silent_rounds && !running_after_disable && !late_hits &&
           !bad_bytes && !bad_args && !api_errors && !stalled_rounds &&
           fewest >= hits);
  return rt_finish();
}
