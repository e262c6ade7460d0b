/* A program that lets xsdt-trace attach to it by pid (xsdt/attach.h). It
 * listens, then runs `TRACE -p <its pid> ARGS...` (argv[1..]) as a child
 * and, while the child runs, waits for the probes to be enabled (their
 * semaphore), fires app:::tick with arg0 = 0..99 and arg1 = 7 * arg0
 * exactly once, then app:::done, which the child's D program ends on with
 * exit(). It does this twice (two attaches, one after the other), and
 * checks between and after that its probes were disabled again (the
 * semaphores back to 0). Its own work goes on throughout: the sum it
 * prints is 0 + 1 + ... + 99 per round. With ATTACH_ONCE set it runs the
 * tracer once and only waits for it (xsdt-trace -l -p). */
#define _GNU_SOURCE 1
#include <xsdt/attach.h>
#include <xsdt/usdt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

XSDT_SEMAPHORE(app, tick);
XSDT_SEMAPHORE(app, done);

static long sum;

__attribute__((noinline)) static void tick(long i) {
  XSDT_PROBE_GUARDED(app, tick, i, i * 7);
  sum += i;
}

__attribute__((noinline)) static void finished(void) {
  XSDT_PROBE_GUARDED(app, done);
}

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

static int one_attach(char **argv, int argc) {
  char pid[32];
  snprintf(pid, sizeof pid, "%d", (int)getpid());
  char **child_argv = calloc((size_t)argc + 3, sizeof *child_argv);
  child_argv[0] = argv[1];
  child_argv[1] = "-p";
  child_argv[2] = pid;
  for (int i = 2; i < argc; ++i)
    child_argv[i + 1] = argv[i];
  pid_t child = fork();
  if (child == 0) {
    execv(child_argv[0], child_argv);
    perror("execv");
    _exit(127);
  }
  free(child_argv);
  int status = 0;
  if (getenv("ATTACH_ONCE")) {
    waitpid(child, &status, 0);
    printf("tracer status %d\n", WEXITSTATUS(status));
    return 0;
  }
  /* Until the tracer holds both probes (or gives up and ends). */
  while (!(XSDT_PROBE_ENABLED(app, tick) && XSDT_PROBE_ENABLED(app, done))) {
    if (waitpid(child, &status, WNOHANG) == child) {
      printf("tracer ended before enabling the probes: status %d\n",
             WEXITSTATUS(status));
      return 1;
    }
    pause_ms(5);
  }
  for (long i = 0; i < 100; ++i)
    tick(i);
  finished();
  waitpid(child, &status, 0);
  /* The agent has disabled the probes before the tracer ended. */
  printf("tracer status %d, semaphores %d %d\n", WEXITSTATUS(status),
         (int)app_tick_semaphore, (int)app_done_semaphore);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TRACE [ARGS...]\n", argv[0]);
    return 2;
  }
  xsdt_error err;
  if (xsdt_attach_listen(&err) != 0) {
    printf("xsdt_attach_listen: %s\n", err.message);
    return 1;
  }
  /* Listening again is no error. */
  if (xsdt_attach_listen(&err) != 0)
    printf("second xsdt_attach_listen: %s\n", err.message);
  for (int round = 1; round <= (getenv("ATTACH_ONCE") ? 1 : 2); ++round) {
    printf("round %d\n", round);
    fflush(stdout);
    if (one_attach(argv, argc) != 0)
      return 1;
    fflush(stdout);
  }
  printf("sum %ld\n", sum);
  return 0;
}
