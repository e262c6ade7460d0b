/* C++: the <sys/sdt.h> drop-in with register variables as arguments: general registers (callee-saved, and one no portable spec names) and floating-point registers (double, float, an int in an SSE register), pinned with `register T v __asm__("reg")` (compat-registers.h). */
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"
#include "compat-registers.h"

/* Each probe pins its arguments right before it, inside the statement the
 * oracle fires after recording the values: a call between the assignment
 * and the probe (the oracle's recording is one) may clobber a caller-saved
 * register such as xmm0 or ip, and gcc does not keep a register variable
 * across it. The oracle records the same values from plain expressions. */

volatile long src_long = -123456789L;
volatile double src_double = -2.5;
volatile float src_float = 0.375f;
volatile int src_int = 0x1234;

/* 5 probes, 1 + 1 + 1 + 3 + 2 = 8 arguments. */
__attribute__((noinline)) void general(long a) {
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(long, g1) = a * 3;
        STAP_PROBE1(compat_reg, gp1, g1);
      } while (0),
      compat_reg, gp1, a * 3);
  ORACLE_GENERATED(
      do {
        COMPAT_GP2(long, g2) = a + 77;
        STAP_PROBE1(compat_reg, gp2, g2);
      } while (0),
      compat_reg, gp2, a + 77);
  ORACLE_GENERATED(
      do {
        COMPAT_GP3(long, g3) = a ^ 0x55;
        DTRACE_PROBE1(compat_reg, gp3, g3);
      } while (0),
      compat_reg, gp3, a ^ 0x55);
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(long, g1) = a * 3;
        COMPAT_GP2(long, g2) = a + 77;
        COMPAT_GP3(long, g3) = a ^ 0x55;
        STAP_PROBE3(compat_reg, gp_all, g1, g2, g3);
      } while (0),
      compat_reg, gp_all, a * 3, a + 77, a ^ 0x55);
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(long, g1) = a * 3;
        COMPAT_GP3(long, g3) = a ^ 0x55;
        STAP_PROBEV(compat_reg, gp_v, g1 + 1, g3);
      } while (0),
      compat_reg, gp_v, a * 3 + 1, a ^ 0x55);
}

/* 6 probes, 1 + 1 + 1 + 1 + 4 + 2 = 10 arguments. */
__attribute__((noinline)) void floating(double x, float y, int i) {
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE(double, d) = x * 2;
        STAP_PROBE1(compat_reg, fp_double, d);
      } while (0),
      compat_reg, fp_double, x * 2);
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE2(double, d2) = x - 1;
        STAP_PROBE1(compat_reg, fp_double2, d2);
      } while (0),
      compat_reg, fp_double2, x - 1);
  ORACLE_GENERATED(
      do {
        COMPAT_FLOAT(float, f) = y;
        DTRACE_PROBE1(compat_reg, fp_float, f);
      } while (0),
      compat_reg, fp_float, y);
  ORACLE_GENERATED(
      do {
        COMPAT_INT_IN_FP(int, vi) = i;
        STAP_PROBE1(compat_reg, int_in_fp, vi);
      } while (0),
      compat_reg, int_in_fp, i);
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE(double, d) = x * 2;
        COMPAT_FLOAT(float, f) = y;
        COMPAT_DOUBLE2(double, d2) = x - 1;
        COMPAT_INT_IN_FP(int, vi) = i;
        STAP_PROBE4(compat_reg, fp_all, d, f, d2, vi);
      } while (0),
      compat_reg, fp_all, x * 2, y, x - 1, i);
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE(double, d) = x * 2;
        COMPAT_FLOAT(float, f) = y;
        STAP_PROBEV(compat_reg, fp_v, f, d);
      } while (0),
      compat_reg, fp_v, y, x * 2);
}

/* The same pins through xsdt's own macro: 2 probes, 3 + 2 = 5 arguments
 * (in C, clang on armhf named the pinned ip and lr in the spec). */
__attribute__((noinline)) void native(long a, double x) {
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(long, g1) = a * 3;
        COMPAT_GP2(long, g2) = a + 77;
        COMPAT_GP3(long, g3) = a ^ 0x55;
        XSDT_PROBE(compat_reg, native_gp, g1, g2, g3);
      } while (0),
      compat_reg, native_gp, a * 3, a + 77, a ^ 0x55);
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE(double, d) = x * 2;
        COMPAT_GP3(long, g3) = a ^ 0x55;
        XSDT_PROBE(compat_reg, native_fp, d, g3);
      } while (0),
      compat_reg, native_fp, x * 2, a ^ 0x55);
}

int main() {
  oracle_start();
  general(src_long);
  floating(src_double, src_float, src_int);
  native(src_long, src_double);
  return 0;
}
