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

/* Both builds keep the live probe (int). The control build without
 * --gc-sections also keeps the dead one (long long); the --gc-sections build
 * must have no trace of it and no note resolved to address 0.
 * LIVE: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * LIVE: note provider=corpus name=gc_live pc=0x{{[0-9a-f]*[1-9a-f][0-9a-f]*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * KEPT: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * KEPT: note provider=corpus name=gc_dead pc=0x{{[0-9a-f]*[1-9a-f][0-9a-f]*}} base=[[BASE]] semaphore=0x0 argc=1 args=-8@{{[^ ]+$}}
 * GONE-NOT: gc_dead
 * GONE-NOT: pc=0x0 base=
 */
