/* The <sys/sdt.h> drop-in: STAP_PROBE, STAP_PROBE1..STAP_PROBE12, STAP_PROBEV and DTRACE_PROBE* without semaphores. */
#include <stdint.h>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

volatile int src_int = -3;
volatile double src_double = 0.75;

__attribute__((noinline)) void probes(int a, double d) {
  int8_t i8 = (int8_t)a;
  uint16_t u16 = (uint16_t)(a + 70000);
  int64_t i64 = a * 10000000000LL;
  uint32_t u32 = (uint32_t)a;
  float f = (float)d;
  ORACLE_STAP_PROBE(compat, p0);
  ORACLE_STAP_PROBE1(compat, p1, a);
  ORACLE_STAP_PROBE2(compat, p2, a, d);
  ORACLE_STAP_PROBE3(compat, p3, a, d, i8);
  ORACLE_STAP_PROBE4(compat, p4, a, d, i8, u16);
  ORACLE_STAP_PROBE5(compat, p5, a, d, i8, u16, i64);
  ORACLE_STAP_PROBE6(compat, p6, a, d, i8, u16, i64, u32);
  ORACLE_STAP_PROBE7(compat, p7, a, d, i8, u16, i64, u32, f);
  ORACLE_STAP_PROBE8(compat, p8, a, d, i8, u16, i64, u32, f, a + 1);
  ORACLE_STAP_PROBE9(compat, p9, a, d, i8, u16, i64, u32, f, a + 1, d * 2);
  ORACLE_STAP_PROBE10(compat, p10, a, d, i8, u16, i64, u32, f, a + 1, d * 2,
                      u32 + 1);
  ORACLE_STAP_PROBE11(compat, p11, a, d, i8, u16, i64, u32, f, a + 1, d * 2,
                      u32 + 1, (unsigned char)a);
  ORACLE_STAP_PROBE12(compat, p12, a, d, i8, u16, i64, u32, f, a + 1, d * 2,
                      u32 + 1, (unsigned char)a, (short)a);
  ORACLE_STAP_PROBEV(compat, pv, a, u16, i64);
  ORACLE_DTRACE_PROBE(compat, d0);
  ORACLE_DTRACE_PROBE2(compat, d2, u32, i8);
}

int main(void) {
  oracle_start();
  probes(src_int, src_double);
  return 0;
}

/* Argument types, in order: int, double, int8_t, uint16_t, int64_t,
 * uint32_t, float, int (a + 1), double (d * 2), uint32_t (u32 + 1),
 * unsigned char, short.
 * NOTES: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
 * NOTES-DAG: note provider=compat name=p0 {{.*}} base=[[BASE]] semaphore=0x0 argc=0 args={{$}}
 * NOTES-DAG: note provider=compat name=p1 {{.*}} base=[[BASE]] semaphore=0x0 argc=1 args=-4@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p2 {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-4@{{[^ ]+}} 8f@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p3 {{.*}} base=[[BASE]] semaphore=0x0 argc=3 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p4 {{.*}} base=[[BASE]] semaphore=0x0 argc=4 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p5 {{.*}} base=[[BASE]] semaphore=0x0 argc=5 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p6 {{.*}} base=[[BASE]] semaphore=0x0 argc=6 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p7 {{.*}} base=[[BASE]] semaphore=0x0 argc=7 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p8 {{.*}} base=[[BASE]] semaphore=0x0 argc=8 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p9 {{.*}} base=[[BASE]] semaphore=0x0 argc=9 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+}} 8f@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p10 {{.*}} base=[[BASE]] semaphore=0x0 argc=10 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+}} 8f@{{[^ ]+}} 4@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p11 {{.*}} base=[[BASE]] semaphore=0x0 argc=11 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+}} 8f@{{[^ ]+}} 4@{{[^ ]+}} 1@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=p12 {{.*}} base=[[BASE]] semaphore=0x0 argc=12 args=-4@{{[^ ]+}} 8f@{{[^ ]+}} -1@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+}} 4@{{[^ ]+}} 4f@{{[^ ]+}} -4@{{[^ ]+}} 8f@{{[^ ]+}} 4@{{[^ ]+}} 1@{{[^ ]+}} -2@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=pv {{.*}} base=[[BASE]] semaphore=0x0 argc=3 args=-4@{{[^ ]+}} 2@{{[^ ]+}} -8@{{[^ ]+$}}
 * NOTES-DAG: note provider=compat name=d0 {{.*}} base=[[BASE]] semaphore=0x0 argc=0 args={{$}}
 * NOTES-DAG: note provider=compat name=d2 {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=4@{{[^ ]+}} -1@{{[^ ]+$}}
 */
