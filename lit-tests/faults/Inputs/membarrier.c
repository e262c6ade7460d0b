/* membarrier(2) unavailable. The program wraps syscall(3)
 * (-Wl,--wrap=syscall: libxsdt makes its membarrier calls through it) and
 * makes membarrier fail from the start, before libxsdt's first enable:
 *
 *   enosys        every command: ENOSYS (an old kernel, a seccomp filter)
 *   no-sync-core  the SYNC_CORE commands (register and use): EINVAL
 *   no-expedited  the PRIVATE_EXPEDITED commands (register and use): EINVAL
 *
 * (MEMBARRIER_CMD_QUERY leaves out what fails.) What must happen
 * (docs/runtime.md): where the trap-first protocol serializes every thread
 * with the SYNC_CORE membarrier (trait serialize-membarrier), jump mode is
 * refused with XSDT_ERR_BAD_MODE naming membarrier and AUTO means trap
 * mode; elsewhere jump mode works. Without PRIVATE_EXPEDITED the fire path
 * uses the seq_cst fence, so disable makes no membarrier call. Probes fire
 * with the values the source passed, and with "threads" a thread fires a
 * probe in a loop through rounds of enable and disable: no handler runs
 * after a disable returns.
 *
 * Usage: membarrier enosys|no-sync-core|no-expedited [threads] */
#include "fault-test.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/syscall.h>

/* ---- The fault ----------------------------------------------------------- */

enum { ENOSYS_ALL, NO_SYNC_CORE, NO_EXPEDITED } missing;
static long expedited_calls; /* MEMBARRIER_CMD_PRIVATE_EXPEDITED attempted */

static int refused(int command) {
  switch (missing) {
  case ENOSYS_ALL:
    return 1;
  case NO_SYNC_CORE:
    return command == MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE ||
           command == MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE;
  case NO_EXPEDITED:
    return command == MEMBARRIER_CMD_PRIVATE_EXPEDITED ||
           command == MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
  }
  return 0;
}

long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);
long __wrap_syscall(long number, ...) {
  va_list ap;
  long a[6];
  va_start(ap, number);
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (number == __NR_membarrier) {
    int command = (int)a[0];
    if (command == MEMBARRIER_CMD_PRIVATE_EXPEDITED)
      __atomic_add_fetch(&expedited_calls, 1, __ATOMIC_RELAXED);
    if (refused(command)) {
      errno = missing == ENOSYS_ALL ? ENOSYS : EINVAL;
      return -1;
    }
    if (command == MEMBARRIER_CMD_QUERY) {
      long commands = __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
      if (commands > 0)
        for (int bit = 0; bit < 31; ++bit)
          if (refused(1 << bit))
            commands &= ~(1L << bit);
      return commands;
    }
  }
  return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- The probe ----------------------------------------------------------- */

SDT_PROVIDER_DEFINE(fb);
SDT_PROBE_DEFINE2(fb, m, f, w, "long", "long");

static long hits, bad_values, inside;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)user;
  __atomic_store_n(&inside, 1, __ATOMIC_RELAXED);
  if ((long)a[1] != 3 * (long)a[0] + 1)
    __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&hits, 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&inside, 0, __ATOMIC_RELAXED);
}

JT_NOIPA void fire(long i) { SDT_PROBE2(fb, m, f, w, i, 3 * i + 1); }

static int stop;
static long iterations;
static void *worker(void *arg) {
  (void)arg;
  for (long i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); ++i) {
    fire(i);
    __atomic_store_n(&iterations, i, __ATOMIC_RELAXED);
  }
  return NULL;
}

/* Waits until the worker has done `n` more iterations (bounded). */
static void let_worker_run(long n) {
  long start = __atomic_load_n(&iterations, __ATOMIC_RELAXED);
  for (int spins = 0; spins < 2000000 &&
                      __atomic_load_n(&iterations, __ATOMIC_RELAXED) - start < n;
       ++spins)
    sched_yield();
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  if (strcmp(what, "enosys") == 0)
    missing = ENOSYS_ALL;
  else if (strcmp(what, "no-sync-core") == 0)
    missing = NO_SYNC_CORE;
  else if (strcmp(what, "no-expedited") == 0)
    missing = NO_EXPEDITED;
  else {
    printf("usage: membarrier enosys|no-sync-core|no-expedited [threads]\n");
    return 2;
  }
  const int threads = argc > 2 && strcmp(argv[2], "threads") == 0;
  printf("membarrier: %s\n", what);
  xsdt_error err;

  /* Jump mode first: the first enable decides both the barrier and
   * whether jump writes are possible. */
  int r = xsdt_sdt_enable("fb:::", XSDT_MODE_JUMP, on_hit, NULL, &err);
  ft_print_result("jump", r, &err);
  const int no_sync_core = missing != NO_EXPEDITED;
#ifdef TRAIT_SERIALIZE_MEMBARRIER
  const int jump_refused = no_sync_core;
#else
  const int jump_refused = 0;
#endif
  if (jump_refused) {
    RT_CHECK(r == -1 && err.code == XSDT_ERR_BAD_MODE &&
             strstr(err.message, "membarrier"));
    RT_CHECK(ft_not_in_state("fb:", 0) == 0);
  } else {
    RT_CHECK(r == 1);
    RT_CHECK(ft_not_in_state("fb:", XSDT_MODE_JUMP) == 0);
    RT_EXPECT_RESULT(xsdt_sdt_disable("fb:::", &err), 1, &err);
  }
  (void)no_sync_core;

  r = xsdt_sdt_enable("fb:::", XSDT_MODE_AUTO, on_hit, NULL, &err);
  xsdt_mode want = jump_refused ? XSDT_MODE_TRAP : XSDT_MODE_JUMP;
  int others = ft_not_in_state("fb:", want);
  printf("auto: %d, sites in %s mode: %s\n", r, jt_mode_name(want),
         others ? "NO" : "yes");
  RT_CHECK(r == 1 && others == 0);
  fire(5);
  printf("hits %ld, values right: %s\n", hits, bad_values ? "NO" : "yes");
  long calls_before = expedited_calls;
  RT_EXPECT_RESULT(xsdt_sdt_disable("fb:::", &err), 1, &err);
  fire(6);
  printf("after disable: hits %ld\n", hits);

  if (threads) {
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0) {
      printf("FAIL pthread_create\n");
      return 1;
    }
    int rounds = 20, late = 0, busy = 0, quiet_rounds = 0;
    for (int round = 0; round < rounds; ++round) {
      long before = __atomic_load_n(&hits, __ATOMIC_SEQ_CST);
      RT_EXPECT_RESULT(
          xsdt_sdt_enable("fb:::", XSDT_MODE_AUTO, on_hit, NULL, &err), 1,
          &err);
      let_worker_run(50);
      RT_EXPECT_RESULT(xsdt_sdt_disable("fb:::", &err), 1, &err);
      /* No handler is running now, and none starts later. */
      busy += __atomic_load_n(&inside, __ATOMIC_SEQ_CST) != 0;
      long after = __atomic_load_n(&hits, __ATOMIC_SEQ_CST);
      quiet_rounds += after > before;
      let_worker_run(200);
      late += __atomic_load_n(&hits, __ATOMIC_SEQ_CST) != after;
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    pthread_join(t, NULL);
    printf("%d rounds with a thread firing: rounds with hits %d, handlers "
           "running at disable's return %d, rounds with hits after disable "
           "%d, values right: %s\n",
           rounds, quiet_rounds, busy, late, bad_values ? "NO" : "yes");
    RT_CHECK(quiet_rounds == rounds && busy == 0 && late == 0 &&
             bad_values == 0);
  }
  long calls = expedited_calls - calls_before;
  printf("membarrier PRIVATE_EXPEDITED calls by disable: %s\n",
         calls ? "some" : "none");
  return rt_finish();
}
