/* Semaphores: XSDT_SEMAPHORE, XSDT_PROBE_GUARDED, XSDT_PROBE_ENABLED, and a second site in semaphore-other.c through XSDT_SEMAPHORE_DECLARE. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* The only semaphore of the program, so it sits at the start of .probes. */
XSDT_SEMAPHORE(corpus, guarded);

void other_site(int value); /* semaphore-other.c */
int other_enabled(void);    /* semaphore-other.c */

volatile int src_value = 31;
int evaluations = 0;

/* Counts its evaluations; its value does not depend on the count, so the
 * oracle's record and the probe see the same value. */
__attribute__((noinline)) static int observed(int v) {
  ++evaluations;
  return v + 1;
}

/* The second argument must be evaluated only while a tracer holds the
 * semaphore. */
__attribute__((noinline)) void guarded_site(int value) {
  ORACLE_PROBE_GUARDED(corpus, guarded, value, observed(value));
}

int main(void) {
  int value = src_value;
  /* No tracer: neither site evaluates its arguments. */
  guarded_site(value);
  other_site(value);
  if (evaluations != 0)
    return 1;
  if (XSDT_PROBE_ENABLED(corpus, guarded) || other_enabled())
    return 2;

  /* The oracle attaches through the runtime, which increments the
   * semaphore: both sites fire, and evaluate their arguments (the oracle
   * evaluates them ORACLE_EVALUATIONS times). */
  oracle_start();
  if (!XSDT_PROBE_ENABLED(corpus, guarded) || !other_enabled())
    return 3;
  guarded_site(value);
  other_site(value);
  if (evaluations != 2 * ORACLE_EVALUATIONS)
    return 4;

  /* Detached: the semaphore is back to zero. */
  oracle_stop();
  if (XSDT_PROBE_ENABLED(corpus, guarded) || other_enabled())
    return 5;
  guarded_site(value);
  return evaluations == 2 * ORACLE_EVALUATIONS ? 0 : 6;
}
