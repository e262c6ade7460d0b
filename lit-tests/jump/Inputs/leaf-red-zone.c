/* SDT(9) sites in leaf functions that keep data below the stack pointer
 * (the x86-64 red zone): at -O0 their locals, at -O2 spilled values. Built
 * with the register-preserving call (XSDT_SDT_PRESERVING_CALL), so that the
 * functions stay leaves. Nothing is enabled: a kernel tracer puts uprobes on
 * the sites and around them (kernel-uprobes.test). Each leaf's result is
 * compared with a twin that has no site; exit 1 on a difference. */
#include <stdint.h>
#include <stdio.h>
#include <xsdt/sdt.h>

SDT_PROVIDER_DEFINE(lz);
SDT_PROBE_DEFINE3(lz, , , locals, "int", "int", "long long");
SDT_PROBE_DEFINE2(lz, , , spills, "uint64_t", "uint64_t");

__attribute__((noinline)) int32_t locals_leaf(int32_t x) {
  int32_t a = x * 3 + 1, b = 1000 - x;
  int64_t c = (int64_t)a * b;
  SDT_PROBE3(lz, , , locals, a, b, c);
  return a + b + (int32_t)(c >> 7);
}

#define N 24
__attribute__((noinline)) uint64_t spills_leaf(uint64_t s) {
  uint64_t v[N], r = 0;
  int i;
  v[0] = s * 0x9e3779b97f4a7c15ULL;
  for (i = 1; i < N; i++)
    v[i] = (v[i - 1] ^ (s >> (i % 13))) * (uint64_t)(2 * i + 1) + (uint64_t)i;
  SDT_PROBE2(lz, , , spills, v[0], v[N - 1]);
  for (i = 0; i < N; i++)
    r += (v[i] ^ v[(i * 7) % N]) * (uint64_t)(i + 3);
  return r;
}

__attribute__((noinline)) void keep(volatile void *p) { (void)p; }

__attribute__((noinline)) int32_t locals_twin(int32_t x) {
  int32_t a = x * 3 + 1, b = 1000 - x;
  int64_t c = (int64_t)a * b;
  keep(&c);
  return a + b + (int32_t)(c >> 7);
}

__attribute__((noinline)) uint64_t spills_twin(uint64_t s) {
  uint64_t v[N], r = 0;
  int i;
  v[0] = s * 0x9e3779b97f4a7c15ULL;
  for (i = 1; i < N; i++)
    v[i] = (v[i - 1] ^ (s >> (i % 13))) * (uint64_t)(2 * i + 1) + (uint64_t)i;
  keep(v);
  for (i = 0; i < N; i++)
    r += (v[i] ^ v[(i * 7) % N]) * (uint64_t)(i + 3);
  return r;
}

/* A kernel that rewrites a uprobe does it after its first hit: the later
 * calls tell. Few, as every instruction before a site holds a uprobe. */
#define CALLS 16

int main(void) {
  int i, wrong = 0;
  for (i = 0; i < CALLS; i++) {
    wrong += locals_leaf(i * 7 - 100) != locals_twin(i * 7 - 100);
    wrong += spills_leaf(0x0123456789abcdefULL * (uint64_t)(i + 1)) !=
             spills_twin(0x0123456789abcdefULL * (uint64_t)(i + 1));
  }
  printf("leaf-red-zone: %d of %d leaf calls returned a wrong value\n", wrong,
         2 * CALLS);
  return wrong != 0;
}
