/* 64-bit integers and doubles (the hard case on i386, where they need a register pair or memory) from registers, from memory and as constants. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

int64_t g_i64 = -0x123456789abcLL;
uint64_t g_u64 = 0xfedcba9876543210ULL;
double g_double = -1.0e100;

struct wide {
  int32_t pad;
  int64_t i;
  uint64_t u;
  double d;
};

volatile int64_t src_i64 = -4294967296LL - 5;
volatile uint64_t src_u64 = 0xffffffff00000001ULL;
volatile double src_double = 6.0e-310; /* subnormal */

/* Computed values: held in registers (a pair on i386) when probed. */
__attribute__((noinline)) void from_registers(int64_t a, uint64_t b, double c) {
  int64_t x = a * 3 + 1;
  uint64_t y = b ^ (b >> 7);
  double z = c * 1.5;
  ORACLE_PROBE(corpus, wide_registers, x, y, z, x + (int64_t)y, a, b, c);
}

__attribute__((noinline)) void from_memory(const struct wide *w,
                                           const int64_t *arr, int i) {
  ORACLE_PROBE(corpus, wide_memory, g_i64, g_u64, g_double, w->i, w->u, w->d,
               arr[i], arr[i + 1]);
}

__attribute__((noinline)) void from_constants(void) {
  ORACLE_PROBE(corpus, wide_constants, INT64_MIN, INT64_MAX, UINT64_MAX,
               (int64_t)-1, UINT64_C(0x8000000000000000), 0x100000000LL,
               -4294967297LL, 1.0e300, -0.0, UINT64_C(0xffffffff00000000));
}

/* Registers, memory and constants in one probe. */
__attribute__((noinline)) void mixed(int64_t a, const struct wide *w) {
  ORACLE_PROBE(corpus, wide_mixed, a, w->u, 0x7fffffff80000000LL, a - 1,
               w->d, 2.5e-8, (uint64_t)a >> 1);
}

int main(void) {
  struct wide w = {-1, -8000000000000LL, 0x00000001ffffffffULL, 3.0e200};
  int64_t arr[3] = {INT64_MIN, -2, INT64_MAX};
  oracle_start();
  from_registers(src_i64, src_u64, src_double);
  from_memory(&w, arr, 1);
  from_constants();
  mixed(src_i64, &w);
  return 0;
}
