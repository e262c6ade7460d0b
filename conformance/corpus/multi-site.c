/* One probe name fired from several sites: in different functions, twice in one function, with different argument types, and in a function inlined into two callers. Every site is verified. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile int src_value = 21;

__attribute__((noinline)) void site_a(int v) {
  ORACLE_PROBE(corpus, multi, v, 1);
}

__attribute__((noinline)) void site_b(int v) {
  ORACLE_PROBE(corpus, multi, v * 2, 2);
}

/* Two sites in a row in one function. */
__attribute__((noinline)) void site_cd(int v) {
  ORACLE_PROBE(corpus, multi, -v, 3);
  ORACLE_PROBE(corpus, multi, v + 100, 4);
}

/* The same name with a different argument type at each site. */
__attribute__((noinline)) void typed(int v) {
  ORACLE_PROBE(corpus, multi_typed, (short)v);
  ORACLE_PROBE(corpus, multi_typed, (double)v / 4);
  ORACLE_PROBE(corpus, multi_typed, (uint64_t)v << 40);
}

/* always_inline: one copy of the site in each caller. */
static inline __attribute__((always_inline)) void inlined(int v, int from) {
  ORACLE_PROBE(corpus, multi_inlined, v, from);
}
__attribute__((noinline)) void caller_one(int v) { inlined(v, 1); }
__attribute__((noinline)) void caller_two(int v) { inlined(v + 1, 2); }

int main(void) {
  int v = src_value;
  oracle_start();
  site_a(v);
  site_b(v);
  site_cd(v);
  typed(v);
  caller_one(v);
  caller_two(v);
  /* Again, with other values. */
  site_a(-v);
  caller_two(-v);
  return 0;
}
