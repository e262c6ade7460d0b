/* --gc-sections: a probe in an unreferenced function must be dropped with the function, leaving no note that points at discarded code. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile int src_value = 5;

__attribute__((noinline)) void live_function(int x) {
  ORACLE_PROBE(corpus, gc_live, x);
}

/* Never called. Not static, so the compiler must emit it; with
 * -ffunction-sections it gets its own section, which --gc-sections drops.
 * A plain probe: it never fires, so the oracle has nothing to record. */
__attribute__((noinline)) void dead_function(long long x) {
  XSDT_PROBE(corpus, gc_dead, x);
}

int main(void) {
  /* Where the dead function survives (no --gc-sections), its site is
   * enabled but deliberately never hit. */
  ORACLE_UNREACHED(corpus, gc_dead);
  oracle_start();
  live_function(src_value);
  return 0;
}
