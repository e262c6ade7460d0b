/* Register pressure: 12-argument probes of computed values inside a loop that keeps more values live than there are registers. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile uint32_t src_seed = 0x9e3779b9u;
volatile int src_rounds = 5;

/* Sixteen running values plus the loop counter stay live across every probe
 * (each round feeds all of them into the next), more than the general
 * registers of i386 (6-7) and about as many as x86-64 has (15). */
__attribute__((noinline)) uint64_t mix(uint32_t seed, int rounds) {
  uint32_t a = seed, b = seed ^ 0x1111u, c = seed + 3, d = seed * 5;
  int32_t e = (int32_t)seed >> 3, f = -(int32_t)(seed & 0xffff);
  uint64_t g = (uint64_t)seed << 20, h = g ^ 0xdeadbeefULL;
  int64_t i = -(int64_t)g, j = (int64_t)h / 3;
  int16_t k = (int16_t)seed;
  uint8_t l = (uint8_t)(seed >> 24);
  double m = seed * 0.5, n = -m;
  uint32_t o = a + b, p = c ^ d;
  int r;
  for (r = 0; r < rounds; r++) {
    a += b ^ (c << 1);
    b -= d + (uint32_t)e;
    c ^= (uint32_t)f * 7u;
    d += a >> 3;
    e -= (int32_t)(b & 0xff);
    f += (int32_t)c >> 5;
    g += h ^ (uint64_t)i;
    h -= (uint64_t)j * 3u;
    i ^= (int64_t)g >> 7;
    j += i - (int64_t)a;
    k = (int16_t)(k * 3 + r);
    l = (uint8_t)(l + d);
    m = m * 1.5 + e;
    n = n - m * 0.25;
    o += p ^ a;
    p -= o >> 2;
    ORACLE_PROBE(corpus, pressure_step, a, e, g, i, k, l, m, b ^ c, d + f,
                 h - j, (float)n, o * p);
    ORACLE_PROBE(corpus, pressure_wide, g, h, i, j, g + h, i - j, g ^ i,
                 h ^ j, g * 3, (int64_t)h >> 1, i + r, j - r);
  }
  return a + b + c + d + (uint64_t)e + (uint64_t)f + g + h + (uint64_t)i +
         (uint64_t)j + (uint64_t)k + l + (uint64_t)m + (uint64_t)n + o + p;
}

int main(void) {
  oracle_start();
  uint64_t v = mix(src_seed, src_rounds);
  /* Any value will do; the use keeps mix() from being discarded. */
  return v == 1 ? 1 : 0;
}
