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
