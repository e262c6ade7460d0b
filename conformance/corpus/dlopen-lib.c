/* Library half of dlopen.c: loaded with dlopen after the program started, with probes and a semaphore of its own. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

XSDT_SEMAPHORE(corpus_dl, guarded);

static long long dl_total = -5;
int dl_evaluations = 0;

/* Counts its evaluations, with a value independent of the count. */
__attribute__((noinline)) static unsigned dl_observed(int x) {
  ++dl_evaluations;
  return (unsigned)x * 7u;
}

__attribute__((noinline)) int dl_entry(int x, const char *s, double d) {
  dl_total += x;
  ORACLE_PROBE(corpus_dl, entry, x, s, d, dl_total);
  ORACLE_PROBE_GUARDED(corpus_dl, guarded, (unsigned)x, dl_observed(x));
  return x * 2;
}

int dl_enabled(void) { return XSDT_PROBE_ENABLED(corpus_dl, guarded); }
