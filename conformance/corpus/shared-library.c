/* Probes in a program linked against a shared library with probes of its own (shared-library-lib.c). */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

int lib_entry(int x, double y); /* shared-library-lib.c */
int lib_enabled(void);          /* shared-library-lib.c */
extern int lib_evaluations;     /* shared-library-lib.c */

volatile int src_value = 77;

__attribute__((noinline)) int call_library(int value) {
  int result = lib_entry(value, value * 0.5);
  ORACLE_PROBE(corpus, after_library, value, result);
  return result;
}

int main(void) {
  int value = src_value;
  /* No tracer yet: the library's semaphore is clear. */
  if (lib_enabled())
    return 1;
  /* The library is loaded before main: the oracle enables its probes
   * too, and the runtime sets the library's own semaphore. */
  oracle_start();
  if (!lib_enabled())
    return 2;
  if (call_library(value) != value + 1)
    return 3;
  return lib_evaluations == ORACLE_EVALUATIONS ? 0 : 4;
}
