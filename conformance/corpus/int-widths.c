/* Every integer width, signed and unsigned, one probe each; the values come
 * from function parameters so that they live in registers. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

__attribute__((noinline)) void widths(int8_t i8, uint8_t u8, int16_t i16,
                                      uint16_t u16, int32_t i32, uint32_t u32,
                                      int64_t i64, uint64_t u64) {
  ORACLE_PROBE(corpus, i8, i8);
  ORACLE_PROBE(corpus, u8, u8);
  ORACLE_PROBE(corpus, i16, i16);
  ORACLE_PROBE(corpus, u16, u16);
  ORACLE_PROBE(corpus, i32, i32);
  ORACLE_PROBE(corpus, u32, u32);
  ORACLE_PROBE(corpus, i64, i64);
  ORACLE_PROBE(corpus, u64, u64);
}

int main(void) {
  oracle_start();
  widths(-8, 200, -1600, 60000, -320000, 4000000000u, -6400000000LL,
         18000000000000000000ull);
  return 0;
}
