/* Trap signals that are not ours (SIGTRAP, or SIGILL where a trap raises
 * that: EXPECT_TRAP_SIGNAL) go to the handler the program installed before
 * the runtime's (argv[1] == "own"), or, with no handler (SIG_DFL,
 * argv[1] == "default"), kill the process as they would without the
 * runtime. */
#include "rt-test.h"

#include <signal.h>

static volatile int own_traps, probe_hits;

static void own_handler(int sig, siginfo_t *si, void *uc) {
  (void)si, (void)uc;
  if (sig == EXPECT_TRAP_SIGNAL)
    ++own_traps;
}

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)argc, (void)a, (void)u;
  ++probe_hits;
}

__attribute__((noinline)) void fire(int x) { XSDT_PROBE(trap, site, x); }

int main(int argc, char **argv) {
  xsdt_error err;
  int own = argc > 1 && strcmp(argv[1], "own") == 0;
  if (own) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = own_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(EXPECT_TRAP_SIGNAL, &sa, NULL);
  }
  RT_EXPECT_RESULT(xsdt_enable("trap:site", on_hit, NULL, &err), 1, &err);
  fire(1);
  RT_CHECK(probe_hits == 1);
  printf("probe hits %d\n", probe_hits);
  fflush(stdout);
  raise(EXPECT_TRAP_SIGNAL); /* not a probe: the previous disposition decides */
  RT_CHECK(own_traps == 1);
  fire(2);
  RT_CHECK(probe_hits == 2 && own_traps == 1);
  printf("own traps %d, probe hits %d\n", own_traps, probe_hits);
  RT_EXPECT_RESULT(xsdt_disable("trap:site", &err), 1, &err);
  raise(EXPECT_TRAP_SIGNAL);
  RT_CHECK(own_traps == 2);
  return rt_finish();
}
