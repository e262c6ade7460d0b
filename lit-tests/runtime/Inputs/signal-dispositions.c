/* An enable takes the signals a trap raises and no other: the trap signal
 * (EXPECT_TRAP_SIGNAL) and, where the arch has one, the race signal
 * (EXPECT_TRAP_RACE_SIGNAL, 0 for none), both from arch.json. Every other
 * signal keeps its disposition, whether the program set a handler, ignored
 * it or left the default, and the program's own handler still runs. */
#include "rt-test.h"

#include <signal.h>

static volatile sig_atomic_t program_hits;
static volatile int probe_hits;

static void program_handler(int sig) {
  (void)sig;
  ++program_hits;
}

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++probe_hits;
}

__attribute__((noinline)) void fire(int x) { XSDT_PROBE(signals, site, x); }

static int same_disposition(const struct sigaction *a,
                            const struct sigaction *b) {
  if (a->sa_flags != b->sa_flags)
    return 0;
  if (a->sa_flags & SA_SIGINFO ? a->sa_sigaction != b->sa_sigaction
                               : a->sa_handler != b->sa_handler)
    return 0;
  for (int s = 1; s < NSIG; ++s)
    if (sigismember(&a->sa_mask, s) != sigismember(&b->sa_mask, s))
      return 0;
  return 1;
}

static int is_trap_signal(int sig) {
  return sig == EXPECT_TRAP_SIGNAL ||
         (EXPECT_TRAP_RACE_SIGNAL != 0 && sig == EXPECT_TRAP_RACE_SIGNAL);
}

int main(void) {
  struct sigaction before[NSIG], after[NSIG];
  int readable[NSIG];
  /* A program handler, an ignored signal and defaults all around them. */
  struct sigaction own;
  memset(&own, 0, sizeof own);
  own.sa_handler = program_handler;
  sigemptyset(&own.sa_mask);
  sigaddset(&own.sa_mask, SIGUSR2);
  RT_CHECK(sigaction(SIGUSR1, &own, NULL) == 0);
  signal(SIGPIPE, SIG_IGN);
  for (int s = 1; s < NSIG; ++s)
    readable[s] = sigaction(s, NULL, &before[s]) == 0;

  xsdt_error err;
  RT_EXPECT_RESULT(xsdt_enable("signals:site", on_hit, NULL, &err), 1, &err);
  fire(1);
  RT_CHECK(probe_hits == 1);

  int taken = 0, kept = 0;
  for (int s = 1; s < NSIG; ++s) {
    if (!readable[s]) { /* SIGKILL, SIGSTOP, or the emulator's own */
      RT_CHECK(sigaction(s, NULL, &after[s]) != 0);
      continue;
    }
    RT_CHECK(sigaction(s, NULL, &after[s]) == 0);
    if (same_disposition(&before[s], &after[s])) {
      RT_CHECK(!is_trap_signal(s));
      ++kept;
      continue;
    }
    printf("taken: SIG%s\n", sigabbrev_np(s));
    RT_CHECK(is_trap_signal(s));
    RT_CHECK(after[s].sa_flags & SA_SIGINFO);
    ++taken;
  }
  RT_CHECK(taken == (EXPECT_TRAP_RACE_SIGNAL != 0 ? 2 : 1));
  printf("kept %d\n", kept);

  raise(SIGUSR1);
  RT_CHECK(program_hits == 1);
  RT_EXPECT_RESULT(xsdt_disable("signals:site", &err), 1, &err);
  return rt_finish();
}
