/* Semaphores: XSDT_SEMAPHORE, XSDT_PROBE_GUARDED, XSDT_PROBE_ENABLED, and a second site in semaphore-other.c through XSDT_SEMAPHORE_DECLARE. */
#include <xsdt/usdt.h>

/* The only semaphore of the program, so it sits at the start of .probes. */
XSDT_SEMAPHORE(corpus, guarded);

void other_site(int value); /* semaphore-other.c */
int other_enabled(void);    /* semaphore-other.c */

volatile int src_value = 31;
int side_effects = 0;

__attribute__((noinline)) static int bump(void) { return ++side_effects; }

/* The second argument increments the counter: it must be evaluated only
 * while a tracer holds the semaphore. */
__attribute__((noinline)) void guarded_site(int value) {
  XSDT_PROBE_GUARDED(corpus, guarded, value, bump());
}

int main(void) {
  int value = src_value;
  guarded_site(value);
  other_site(value);
  if (side_effects != 0)
    return 1;
  if (XSDT_PROBE_ENABLED(corpus, guarded) || other_enabled())
    return 2;

  /* Act as a tracer: attaching increments the semaphore. */
  corpus_guarded_semaphore++;
  if (!XSDT_PROBE_ENABLED(corpus, guarded) || !other_enabled())
    return 3;
  guarded_site(value);
  other_site(value);
  if (side_effects != 2)
    return 4;
  corpus_guarded_semaphore--;

  guarded_site(value);
  return side_effects == 2 ? 0 : 5;
}

/* Both sites (guarded_site here, other_site in semaphore-other.c) name the
 * semaphore, i.e. the address where .probes starts. Arguments: int, int.
 * NOTES-DAG: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * NOTES-DAG: section .probes addr=[[PROBES:0x[0-9a-f]+]]
 * NOTES-DAG: note provider=corpus name=guarded {{.*}} base=[[BASE]] semaphore=[[PROBES]] argc=2 args=-4@{{[^ ]+}} -4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=guarded {{.*}} base=[[BASE]] semaphore=[[PROBES]] argc=2 args=-4@{{[^ ]+}} -4@{{[^ ]+$}}
 */
