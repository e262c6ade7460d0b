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

/* The sizes and signs below are read off the parameter types above.
 * NOTES: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * NOTES-DAG: note provider=corpus name=i8 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-1@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=u8 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=1@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=i16 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-2@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=u16 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=2@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=i32 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=u32 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=i64 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-8@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=u64 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8@{{[^ ]+$}}
 */
