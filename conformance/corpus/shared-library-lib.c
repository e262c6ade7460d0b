/* Shared-library half of shared-library.c: probes in a .so with its own .stapsdt.base and semaphore. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* Hidden by the header: this library's own semaphore, not the program's. */
XSDT_SEMAPHORE(corpus_lib, guarded);

int lib_evaluations = 0;

/* Counts its evaluations, with a value independent of the count. */
__attribute__((noinline)) static int lib_observed(int x) {
  ++lib_evaluations;
  return x * 3;
}

__attribute__((noinline)) int lib_entry(int x, double y) {
  ORACLE_PROBE(corpus_lib, entry, x, y);
  ORACLE_PROBE_GUARDED(corpus_lib, guarded, x, lib_observed(x));
  return x + 1;
}

int lib_enabled(void) { return XSDT_PROBE_ENABLED(corpus_lib, guarded); }
