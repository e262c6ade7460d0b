/* The <sys/sdt.h> drop-in with _SDT_HAS_SEMAPHORES: notes name <provider>_<name>_semaphore, defined by hand (dtrace -h style) or with XSDT_SEMAPHORE. */
#define _SDT_HAS_SEMAPHORES 1
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

/* As a `dtrace -h` header defines it. */
__extension__ unsigned short compat_by_hand_semaphore
    __attribute__((unused, section(".probes"))) = 0;
XSDT_SEMAPHORE(compat, with_macro);

#define COMPAT_BY_HAND_ENABLED() __builtin_expect(compat_by_hand_semaphore, 0)

volatile int src_int = 12;
int evaluated = 0;

/* Counts its evaluations; returns its argument whatever the count. */
__attribute__((noinline)) static int count(int v) {
  evaluated++;
  return v;
}

__attribute__((noinline)) void probes(int a, unsigned long long b) {
  if (COMPAT_BY_HAND_ENABLED())
    ORACLE_DTRACE_PROBE2(compat, by_hand, count(a), b);
  if (XSDT_PROBE_ENABLED(compat, with_macro))
    ORACLE_STAP_PROBE1(compat, with_macro, count(a));
}

/* A second site of by_hand, in its own function: placed after the branches
 * above, clang -O3 duplicates it into both paths (a legal copy of the asm,
 * but the note count would change). */
__attribute__((noinline)) void plain_site(void) {
  ORACLE_STAP_PROBE(compat, by_hand);
}

int main(void) {
  /* No tracer: the guarded arguments are not evaluated. */
  probes(src_int, 5000000000ULL);
  if (evaluated != 0 || COMPAT_BY_HAND_ENABLED() ||
      XSDT_PROBE_ENABLED(compat, with_macro))
    return 1;
  /* The oracle attaches; the runtime increments both semaphores, also the
   * one defined by hand. Each guarded argument is then evaluated
   * ORACLE_EVALUATIONS times. */
  oracle_start();
  if (!COMPAT_BY_HAND_ENABLED() || !XSDT_PROBE_ENABLED(compat, with_macro))
    return 2;
  probes(src_int, 5000000000ULL);
  plain_site();
  return evaluated == 2 * ORACLE_EVALUATIONS ? 0 : 3;
}
