/* Disabled cost of a probe: built once with PROBE_CASE undefined (no probe)
 * and once per case, the instruction count of each function is compared.
 * STAP_PROBEn comes from either <xsdt/sys-sdt.h> or SystemTap's <sys/sdt.h>,
 * chosen by the include path, so both implementations compile the same
 * source. */
#include <sys/sdt.h>

#ifndef PROBE_CASE
#define PROBE_CASE 0
#endif

int global_counter;
long long global_wide = 5;

/* Six arguments already in registers (function parameters). */
__attribute__((noinline)) int six_register_args(int a, int b, int c, int d,
                                                int e, int f) {
  int r = a * b + c;
#if PROBE_CASE == 1
  STAP_PROBE6(cost, six, a, b, c, d, e, f);
#endif
  return r ^ d ^ e ^ f;
}

/* One global argument: the value must be loaded for the probe only. */
__attribute__((noinline)) int one_global_arg(int a) {
#if PROBE_CASE == 2
  STAP_PROBE1(cost, global, global_counter);
#endif
  return a + 1;
}

/* Constants, including a 64-bit one. */
__attribute__((noinline)) int constant_args(int a) {
#if PROBE_CASE == 3
  STAP_PROBE3(cost, constants, 7, -1, 0x123456789abLL);
#endif
  return a + 2;
}

/* A 64-bit value and a double from parameters. */
__attribute__((noinline)) double wide_args(long long w, double d) {
#if PROBE_CASE == 4
  STAP_PROBE3(cost, wide, w, d, global_wide);
#endif
  return (double)w * d;
}

/* A char and a short among register parameters, dead after the probe: the
 * spec sizes them (`-1@x2 -2@x3`), so nothing needs to widen them first. */
__attribute__((noinline)) int narrow_register_args(int a, int b, signed char c,
                                                   short d, int e, int f) {
  int r = a * b;
#if PROBE_CASE == 5
  STAP_PROBE6(cost, narrow, a, b, c, d, e, f);
#endif
  (void)c;
  (void)d;
  return r ^ e ^ f;
}
