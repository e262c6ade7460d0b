/* Arguments that live in the stack frame: stack-passed parameters, a variable-length array, alloca, escaped locals and recursion. Built twice, with -fomit-frame-pointer and with -fno-omit-frame-pointer. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile int src_n = 6;
volatile int src_depth = 4;

/* Twelve parameters: past the argument registers of every ABI here, so
 * the last ones arrive on the stack (all of them on i386). */
__attribute__((noinline)) long long
many_params(int a, long long b, short c, double d, unsigned e, int f,
            long long g, signed char h, float i, unsigned long long j, int k,
            int l) {
  ORACLE_PROBE(corpus, fp_params, a, b, c, d, e, f, g, h, i, j, k, l);
  return a + b + c + (long long)d + e + f + g + h + (long long)i +
         (long long)j + k + l;
}

/* A variable-length array forces frame-relative addressing. */
__attribute__((noinline)) int vla(int n) {
  int buf[n];
  int i;
  for (i = 0; i < n; i++)
    buf[i] = i * i - 7;
  ORACLE_PROBE(corpus, fp_vla, n, buf[0], buf[n - 1], &buf[n / 2],
               (long long)buf[n / 2] * 3000000000LL);
  return buf[n / 2];
}

__attribute__((noinline)) void escape(volatile void *p) { (void)p; }

__attribute__((noinline)) double with_alloca(int n) {
  double *scratch = (double *)__builtin_alloca(sizeof(double) * (unsigned)n);
  int i;
  for (i = 0; i < n; i++)
    scratch[i] = i * 1.25;
  escape(scratch);
  ORACLE_PROBE(corpus, fp_alloca, scratch[n - 1], scratch, n);
  return scratch[0];
}

/* Each level has its own frame; one site, hit at every level. */
__attribute__((noinline)) long long recurse(int depth, long long acc) {
  long long local = acc * 3 + depth;
  escape(&local);
  if (depth == 0)
    return local;
  ORACLE_PROBE(corpus, fp_recurse, depth, acc, local, (double)local / 2);
  return recurse(depth - 1, local) + 1;
}

int main(void) {
  int n = src_n;
  oracle_start();
  many_params(-1, -2000000000000LL, -3, 4.5, 5u, -6, 7000000000LL, -8, 9.5f,
              10000000000000000000ULL, -11, 12);
  vla(n);
  with_alloca(n);
  recurse(src_depth, -5);
  return 0;
}
