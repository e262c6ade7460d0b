/* Shared-library half of shared-library.c: probes in a .so with its own .stapsdt.base and semaphore. */
#include <xsdt/usdt.h>

/* Hidden by the header: this library's own semaphore, not the program's. */
XSDT_SEMAPHORE(corpus_lib, guarded);

int lib_side_effects = 0;

__attribute__((noinline)) int lib_entry(int x, double y) {
  XSDT_PROBE(corpus_lib, entry, x, y);
  XSDT_PROBE_GUARDED(corpus_lib, guarded, x, ++lib_side_effects);
  return x + 1;
}

int lib_enabled(void) { return XSDT_PROBE_ENABLED(corpus_lib, guarded); }

/* The library's notes, against the library's own sections. Arguments:
 * entry (int, double), guarded (int, int).
 * LIB-DAG: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * LIB-DAG: section .probes addr=[[PROBES:0x[0-9a-f]+]]
 * LIB-DAG: note provider=corpus_lib name=entry {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-4@{{[^ ]+}} 8f@{{[^ ]+$}}
 * LIB-DAG: note provider=corpus_lib name=guarded {{.*}} base=[[BASE]] semaphore=[[PROBES]] argc=2 args=-4@{{[^ ]+}} -4@{{[^ ]+$}}
 */
