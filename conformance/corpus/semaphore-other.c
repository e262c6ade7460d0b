/* Second translation unit of semaphore.c: probes through a semaphore defined elsewhere (XSDT_SEMAPHORE_DECLARE). */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

XSDT_SEMAPHORE_DECLARE(corpus, guarded);

extern int evaluations;

/* Counts its evaluations, with a value independent of the count. */
__attribute__((noinline)) static int observed_other(int v) {
  ++evaluations;
  return v - 1;
}

__attribute__((noinline)) void other_site(int value) {
  ORACLE_PROBE_GUARDED(corpus, guarded, value * 2, observed_other(value));
}

int other_enabled(void) { return XSDT_PROBE_ENABLED(corpus, guarded); }
