/* The <sys/sdt.h> drop-in with every kind of scalar a C program passes: chars, _Bool, enums (negative, above INT_MAX, 64-bit), every integer width, arrays (decaying to pointers), string literals, function names and pointers, volatile and const objects, float, double and long double, through STAP_PROBEn, DTRACE_PROBEn and STAP_PROBEV (bools also through XSDT_PROBE). */
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

enum color { RED = -2, GREEN = 5 };
enum big { BIG_TOP = 0x80000000u };
enum wide { WIDE_TOP = 0x100000000ULL };

volatile int src_int = -7;
volatile double src_double = 1.5;
int global_array[3] = {1, 2, 3};
const long const_global = -99;
volatile unsigned short volatile_global = 65000;
const volatile int const_volatile_global = 17;
int matrix[2][3];

__attribute__((noinline)) int callee(int x) { return x + 1; }
__attribute__((noinline)) const char *name_of(int x) { return x ? "yes" : "no"; }

/* 4 probes: 3 + 2 + 6 + 3 = 14 arguments. */
__attribute__((noinline)) void chars_and_bools(int seed) {
  char c = (char)(seed * 30); /* -210 as char: 46 signed, 46 unsigned */
  signed char sc = (signed char)(seed * 14);    /* -98 */
  unsigned char uc = (unsigned char)(seed * -30); /* 210 */
  _Bool no = seed > 0;
  _Bool yes = seed < 0;
  ORACLE_STAP_PROBE3(compat_kinds, chars, c, sc, uc);
  ORACLE_STAP_PROBE2(compat_kinds, bools, no, yes);
  ORACLE_STAP_PROBE6(compat_kinds, char_consts, 'A', (char)-1, (signed char)-128,
                     (unsigned char)255, (_Bool)1, (_Bool)0);
  ORACLE_DTRACE_PROBE3(compat_kinds, char_exprs, (char)(c + 1), (_Bool)(seed & 1),
                       (unsigned char)(uc >> 1));
}

/* 1 probe, 1 argument, through xsdt's own macro, which takes _Bool the same
 * way: a _Bool computed from an odd negative int (clang on ppc64el handed
 * the operand over unmasked, and 1@4 read 0xf9). */
__attribute__((noinline)) void native_bool(int seed) {
  ORACLE_PROBE(compat_kinds, native_bool, (_Bool)(seed & 1));
}

/* 2 probes: 5 + 3 = 8 arguments. */
__attribute__((noinline)) void enums(int seed) {
  enum color red = (enum color)(seed + 5); /* RED */
  enum color green = GREEN;
  enum big top = BIG_TOP;
  enum wide wide_top = WIDE_TOP;
  ORACLE_STAP_PROBE5(compat_kinds, enums, red, green, top, wide_top,
                     (enum color)seed);
  ORACLE_DTRACE_PROBE3(compat_kinds, enum_consts, RED, BIG_TOP, WIDE_TOP);
}

/* 2 probes: 12 + 6 = 18 arguments. */
__attribute__((noinline)) void widths(int seed) {
  short s = (short)(seed * 4000);          /* -28000 */
  unsigned short us = (unsigned short)(seed * -9000); /* 63000 */
  unsigned u = 4000000000u + (unsigned)seed;
  long l = seed * 100000L;
  unsigned long ul = (unsigned long)-1 - 5;
  long long ll = seed * 1000000000000LL;
  unsigned long long ull = 0xfedcba9876543210ULL;
  int8_t i8 = (int8_t)(seed * 18);
  uint16_t u16 = (uint16_t)(seed + 65536);
  int32_t i32 = seed * 300000000;
  uint64_t u64 = (uint64_t)seed;
  size_t sz = sizeof(struct { char b[40]; });
  ptrdiff_t pd = &global_array[0] - &global_array[2];
  intptr_t ip = (intptr_t)seed;
  uintptr_t up = (uintptr_t)&global_array[1];
  wchar_t wc = (wchar_t)(seed * 1000);
  ORACLE_STAP_PROBE12(compat_kinds, widths, s, us, seed, u, l, ul, ll, ull, i8,
                      u16, i32, u64);
  ORACLE_STAP_PROBEV(compat_kinds, widths_v, sz, pd, ip, up, wc, (short)seed);
}

/* 3 probes: 6 + 4 + 5 = 15 arguments. */
__attribute__((noinline)) void arrays_and_functions(int arr_param[], int seed) {
  int local_array[4] = {seed, 2, 3, 4};
  char buf[] = "abc";
  int (*fp)(int) = callee;
  const char *(*fp2)(int) = &name_of;
  ORACLE_STAP_PROBE6(compat_kinds, arrays, local_array, global_array, arr_param,
                     buf, matrix, matrix[1]);
  ORACLE_STAP_PROBE4(compat_kinds, functions, callee, &callee, fp, fp2);
  ORACLE_DTRACE_PROBE5(compat_kinds, pointers, "a string literal", (void *)0,
                       &local_array[2], &fp, (const void *)buf);
  local_array[0] = callee(local_array[1]);
}

/* 2 probes: 7 + 4 = 11 arguments. */
__attribute__((noinline)) void qualified(int seed) {
  volatile int v = seed * 3;
  volatile unsigned char vuc = 250;
  const int k = 42;
  const int ck = seed - 1;
  const volatile long cv = -seed;
  int *const cp = &global_array[2];
  const int *pc = &global_array[0];
  ORACLE_STAP_PROBE7(compat_kinds, qualified, v, vuc, k, ck, cv, cp, pc);
  ORACLE_STAP_PROBE4(compat_kinds, qualified_globals, const_global,
                     volatile_global, const_volatile_global, src_int);
}

/* 3 probes: 8 + 4 + 1 = 13 arguments. */
__attribute__((noinline)) void floating(double d, int seed) {
  float f = (float)d;
  float fneg = -(float)d;
  double dneg = -d;
  double zero = d - d;
  double neg_zero = -zero;
  float inf = (float)(d * DBL_MAX);
  double nan = zero / zero;
  double tiny = DBL_MIN / 4; /* subnormal */
  ORACLE_STAP_PROBE8(compat_kinds, floats, f, fneg, d, dneg, neg_zero, inf, nan,
                     tiny);
  ORACLE_STAP_PROBE4(compat_kinds, float_mixed, seed, f, (double)seed, FLT_MAX);
  /* long double where it is a double; a double elsewhere (a wider long
   * double has no argument spec: lit-tests/compat/long-double-error.test). */
#if __SIZEOF_LONG_DOUBLE__ == __SIZEOF_DOUBLE__
  long double ld = d * 3;
#else
  double ld = d * 3;
#endif
  ORACLE_STAP_PROBE1(compat_kinds, long_double, ld);
}

int main(void) {
  oracle_start();
  chars_and_bools(src_int);
  native_bool(src_int);
  enums(src_int);
  widths(src_int);
  arrays_and_functions(global_array, src_int);
  qualified(src_int);
  floating(src_double, src_int);
  return 0;
}
