/* Fires tick 50 times, then sends SIGINT to its parent (xsdt-trace, as ^C
 * would) and waits to be ended. */
#include <xsdt/usdt.h>
#include <signal.h>
#include <unistd.h>

int main(void) {
  for (int i = 0; i < 50; ++i)
    XSDT_PROBE(app, tick, i);
  kill(getppid(), SIGINT);
  for (;;)
    pause();
}
