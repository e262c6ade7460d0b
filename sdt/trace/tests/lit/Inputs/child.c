/* Fires spawn once, then runs a child that lists the files it holds open
 * (ls -lv /proc/self/fd) and waits for it: the child must hold none of the
 * trace's pipes. */
#include <xsdt/usdt.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  XSDT_PROBE(app, spawn, 1);
  pid_t child = fork();
  if (child == 0) {
    execlp("ls", "ls", "-lv", "/proc/self/fd", (char *)0);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
