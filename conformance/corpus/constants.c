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

/* Types of the literals (C99 6.4.4): 1, -1, 'a' and INT32_MIN are int;
 * UINT32_MAX is unsigned int; 0x123456789abcdef0 and 5000000000 fit in a
 * signed 8-byte type (long on LP64, long long on ILP32); UINT64_C() is an
 * unsigned 8-byte type; 2.75 is double, -0.5f float; sizeof gives size_t,
 * unsigned and pointer-sized.
 * NOTES: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * NOTES-DAG: note provider=corpus name=one {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=zero {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=double_zero {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8f@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=minus_one {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=int32_min {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=uint32_max {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=wide_hex {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-8@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=wide_negative {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-8@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=wide_unsigned {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=double_literal {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8f@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=float_literal {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=4f@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=char_literal {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=cast_uchar {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=1@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=cast_short {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-2@{{[^ ]+$}}
 * NOTES-DAG: note provider=corpus name=mixed {{.*}} base=[[BASE]] semaphore=0x0 argc=12 args=-4@{{[^ ]+}} -4@{{[^ ]+}} -4@{{[^ ]+}} 4@{{[^ ]+}} -8@{{[^ ]+}} -8@{{[^ ]+}} 8f@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+}} 1@{{[^ ]+}} -2@{{[^ ]+}} 8@{{[^ ]+$}}
 * LP64-DAG: note provider=corpus name=sizeof_int {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8@{{[^ ]+$}}
 * LP64-DAG: note provider=corpus name=null {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=8@{{[^ ]+$}}
 * ILP32-DAG: note provider=corpus name=sizeof_int {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=4@{{[^ ]+$}}
 * ILP32-DAG: note provider=corpus name=null {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=4@{{[^ ]+$}}
 */
