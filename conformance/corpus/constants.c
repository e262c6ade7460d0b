/* Constant arguments: small, extreme and 64-bit integers, float and double literals, a char literal, sizeof. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* A literal 0 and a null pointer: compilers print a constant 0 as `xzr` on
 * aarch64 and hand it over in `zero` on riscv; both must become `0`. */
__attribute__((noinline)) void small(void) {
  ORACLE_PROBE(corpus, zero, 0);
  ORACLE_PROBE(corpus, null, (void *)0);
  ORACLE_PROBE(corpus, double_zero, 0.0);
  ORACLE_PROBE(corpus, one, 1);
  ORACLE_PROBE(corpus, minus_one, -1);
}

__attribute__((noinline)) void extremes(void) {
  ORACLE_PROBE(corpus, int32_min, INT32_MIN);
  ORACLE_PROBE(corpus, uint32_max, UINT32_MAX);
}

/* On i386 these must not become 64-bit immediates (gdb truncates them); the
 * header puts them in memory there. */
__attribute__((noinline)) void wide(void) {
  ORACLE_PROBE(corpus, wide_hex, 0x123456789abcdef0);
  ORACLE_PROBE(corpus, wide_negative, -5000000000);
  ORACLE_PROBE(corpus, wide_unsigned, UINT64_C(0xfedcba9876543210));
}

__attribute__((noinline)) void floating(void) {
  ORACLE_PROBE(corpus, double_literal, 2.75);
  ORACLE_PROBE(corpus, float_literal, -0.5f);
}

__attribute__((noinline)) void others(void) {
  ORACLE_PROBE(corpus, char_literal, 'a');
  ORACLE_PROBE(corpus, cast_uchar, (unsigned char)200);
  ORACLE_PROBE(corpus, cast_short, (short)-300);
  ORACLE_PROBE(corpus, sizeof_int, sizeof(int));
}

/* All constants in one probe, as a single asm with many immediates. */
__attribute__((noinline)) void mixed(void) {
  ORACLE_PROBE(corpus, mixed, 1, -1, INT32_MIN, UINT32_MAX, 0x123456789abcdef0,
             -5000000000, 2.75, -0.5f, 'a', (unsigned char)200, (short)-300,
             UINT64_C(0xfedcba9876543210));
}

int main(void) {
  oracle_start();
  small();
  extremes();
  wide();
  floating();
  others();
  mixed();
  return 0;
}
