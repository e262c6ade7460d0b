/* Leaf functions that keep data below the stack pointer around a probe: the 128-byte red zone of the x86-64 ABI, which a kernel tracer must not write. Each leaf's result is checked against arithmetic done apart from it, so a traced run that loses red-zone data fails on its own. */
#include <stdint.h>
#include <stdio.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* How many calls of each leaf: a kernel may trap the first hit of a uprobe
 * and rewrite the site after it (Linux 6.18 turns a uprobe on a 5-byte NOP
 * into a call), so the later hits are the ones that tell. */
#define CALLS 48

volatile int src_calls = CALLS;

/* At -O0 both compilers keep the locals of a leaf function below %rsp
 * (they never move it in a leaf), read back after the probe. The probe's
 * arguments are the parameters and the locals, so a tracer reads the same
 * values the function keeps there. */
__attribute__((noinline)) int32_t locals_leaf(int32_t x, int32_t y) {
  int32_t a = x * 3 + 1;
  int32_t b = y - x;
  int64_t c = (int64_t)a * b;
  IMPL_PROBE(corpus, rz_locals, x, y, a, b, c);
  return (int32_t)(a + b + (int32_t)(c >> 7));
}

/* At -O2 more values are live across the probe than there are registers:
 * gcc and clang spill some below %rsp in a leaf function. Twenty-four 64-bit
 * values, each used after the probe; macros, so that the leaf calls
 * nothing at -O0 either. */
#define SPILLS 24
#define SPILLS_FILL(v, s)                                                      \
  do {                                                                         \
    int i_;                                                                    \
    (v)[0] = (s) * 0x9e3779b97f4a7c15ULL;                                     \
    _Pragma("GCC unroll 32") for (i_ = 1; i_ < SPILLS; i_++)(v)[i_] =          \
        ((v)[i_ - 1] ^ ((s) >> (i_ % 13))) * (uint64_t)(2 * i_ + 1) +          \
        (uint64_t)i_;                                                          \
  } while (0)
#define SPILLS_SUM(r, v)                                                       \
  do {                                                                         \
    int i_;                                                                    \
    (r) = 0;                                                                   \
    _Pragma("GCC unroll 32") for (i_ = 0; i_ < SPILLS; i_++)(r) +=             \
        ((v)[i_] ^ (v)[(i_ * 7) % SPILLS]) * (uint64_t)(i_ + 3);               \
  } while (0)

__attribute__((noinline)) uint64_t spills_leaf(uint64_t s) {
  uint64_t v[SPILLS], r;
  SPILLS_FILL(v, s);
  IMPL_PROBE(corpus, rz_spills, s, v[0], v[SPILLS - 1]);
  SPILLS_SUM(r, v);
  return r;
}

/* The same computations, in functions that call (not leaves, so no red
 * zone) and hold no probe: the truth the leaves are checked against. */
__attribute__((noinline)) void keep(volatile void *p) { (void)p; }

__attribute__((noinline)) int32_t locals_truth(int32_t x, int32_t y) {
  int32_t a = x * 3 + 1, b = y - x;
  int64_t c = (int64_t)a * b;
  keep(&c);
  return (int32_t)(a + b + (int32_t)(c >> 7));
}

__attribute__((noinline)) uint64_t spills_truth(uint64_t s) {
  uint64_t v[SPILLS], r;
  SPILLS_FILL(v, s);
  keep(v);
  SPILLS_SUM(r, v);
  return r;
}

int main(void) {
  int i, wrong = 0, calls = src_calls;
  oracle_start();
  for (i = 0; i < calls; i++) {
    int32_t x = i * 7 - 100, y = 1000 - i * i;
    int32_t a = x * 3 + 1, b = y - x;
    int32_t got;
    /* The leaf fires the probe; the caller records what it passes. */
    ORACLE_GENERATED(got = locals_leaf(x, y), corpus, rz_locals, x, y, a, b,
                     (int64_t)a * b);
    wrong += got != locals_truth(x, y);
  }
  for (i = 0; i < calls; i++) {
    uint64_t s = 0x0123456789abcdefULL * (uint64_t)(i + 1), v[SPILLS], got;
    SPILLS_FILL(v, s);
    ORACLE_GENERATED(got = spills_leaf(s), corpus, rz_spills, s, v[0],
                     v[SPILLS - 1]);
    wrong += got != spills_truth(s);
  }
  if (wrong)
    printf("red-zone: %d of %d leaf calls returned a wrong value\n", wrong,
           2 * calls);
  return wrong != 0;
}
