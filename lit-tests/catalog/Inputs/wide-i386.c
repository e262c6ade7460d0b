/* 64-bit values computed in the function (register pairs on i386: edx:eax
 * and the like), 64-bit parameters and 64-bit expressions. The inputs come from volatile
 * variables, so no value is a compile-time constant. ORACLE_PROBE records
 * each value from its C type, then fires IMPL_PROBE. */
#include <stdint.h>

__attribute__((noinline)) long long sum_prod(long long a, long long b) {
  long long sum = a + b;
  unsigned long long prod = (unsigned long long)a * 3u;
  ORACLE_PROBE(catalog, sum_prod, sum, prod);
  return sum ^ (long long)prod;
}

__attribute__((noinline)) int64_t shifted(int32_t x) {
  int64_t v = (int64_t)x << 33;
  ORACLE_PROBE(catalog, shifted, v);
  return v;
}

__attribute__((noinline)) uint64_t params(uint64_t a, int64_t b) {
  ORACLE_PROBE(catalog, params, a, b);
  return a + (uint64_t)b;
}

/* 64-bit expressions as arguments: computed into a register pair even at
 * -O0, where named variables would live in memory. */
__attribute__((noinline)) long long expressions(long long a, long long b,
                                                int x) {
  ORACLE_PROBE(catalog, expressions, a + b, (long long)x << 33, a * b);
  return a - b;
}

volatile long long in_a = -5000000000LL, in_b = 7000000001LL;
volatile int32_t in_x = -3;
volatile uint64_t in_u = 0x0123456789abcdefULL;
volatile int64_t in_s = -0x1122334455LL;

int main(void) {
  oracle_start();
  long long r = sum_prod(in_a, in_b);
  r += shifted(in_x);
  r += (long long)params(in_u, in_s);
  r += expressions(in_a, in_b, in_x);
  return r == 0;
}
