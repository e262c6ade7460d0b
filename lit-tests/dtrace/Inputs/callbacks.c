/* SORTER_START takes the three arguments of callbacks.d's probe. */
#include "callbacks.h"
#include <string.h>

static void on_signal(int sig) { (void)sig; }
static int compare(const void *a, const void *b) { return memcmp(a, b, 1); }

int main(void) {
  oracle_start();
  ORACLE_GENERATED(SORTER_START(on_signal, &compare, 12), sorter, start,
                   on_signal, &compare, 12);
  oracle_stop();
  return 0;
}
