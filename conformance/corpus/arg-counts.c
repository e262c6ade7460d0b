/* Argument counts: probes with 0, 1, 6 and 12 arguments (12 of mixed types, and 12 of 8-byte values). */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* Volatile sources: the compiler cannot fold the probed values into
 * constants, so they reach the probes as run-time values. */
volatile int8_t src_i8 = -8;
volatile uint8_t src_u8 = 200;
volatile int16_t src_i16 = -1600;
volatile uint16_t src_u16 = 60000;
volatile int32_t src_i32 = -320000;
volatile uint32_t src_u32 = 4000000000u;
volatile int64_t src_i64 = -6400000000LL;
volatile uint64_t src_u64 = 18000000000000000000ull;
volatile float src_f = 1.25f;
volatile double src_d = -2.5;

__attribute__((noinline)) void args0(void) { ORACLE_PROBE(corpus, args0); }

__attribute__((noinline)) void args1(int a) { ORACLE_PROBE(corpus, args1, a); }

__attribute__((noinline)) void args6(int a, unsigned b, long long c, short d,
                                     unsigned char e, double f) {
  ORACLE_PROBE(corpus, args6, a, b, c, d, e, f);
}

__attribute__((noinline)) void
args12(signed char a, unsigned char b, short c, unsigned short d, int e,
       unsigned f, long long g, unsigned long long h, float i, double j,
       _Bool k, int16_t l) {
  ORACLE_PROBE(corpus, args12, a, b, c, d, e, f, g, h, i, j, k, l);
}

__attribute__((noinline)) void args12_wide(int64_t a, uint64_t b, int64_t c,
                                           uint64_t d, int64_t e, uint64_t f,
                                           int64_t g, uint64_t h, int64_t i,
                                           uint64_t j, int64_t k, uint64_t l) {
  ORACLE_PROBE(corpus, args12_wide, a, b, c, d, e, f, g, h, i, j, k, l);
}

int main(void) {
  int8_t i8 = src_i8;
  uint8_t u8 = src_u8;
  int16_t i16 = src_i16;
  uint16_t u16 = src_u16;
  int32_t i32 = src_i32;
  uint32_t u32 = src_u32;
  int64_t i64 = src_i64;
  uint64_t u64 = src_u64;
  float f = src_f;
  double d = src_d;

  oracle_start();
  args0();
  args1(i32);
  args6(i32, u32, i64, i16, u8, d);
  args12(i8, u8, i16, u16, i32, u32, i64, u64, f, d, i32 < 0, i16);
  args12_wide(i64, u64, i64 - 1, u64 - 1, i64 - 2, u64 - 2, i64 - 3, u64 - 3,
              i64 - 4, u64 - 4, i64 - 5, u64 - 5);
  return 0;
}
