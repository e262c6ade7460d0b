/* A probe in a hot loop, hit once per iteration (the count is argv[1], 100 by default), with values that change at every hit. */
#include <stdint.h>
#include <stdlib.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

static const int16_t table[8] = {-8, 7, -6, 5, -4, 3, -2, 1};

__attribute__((noinline)) uint64_t run(int32_t n) {
  uint64_t acc = 1;
  int8_t small = 0;
  double x = 0;
  int32_t i;
  for (i = 0; i < n; i++) {
    acc = acc * 6364136223846793005ULL + 1442695040888963407ULL;
    small = (int8_t)(small + 37);
    x += 0.25;
    ORACLE_PROBE(corpus, loop_step, i, acc, small, x, (uint16_t)(acc >> 48),
                 table[i & 7]);
  }
  ORACLE_PROBE(corpus, loop_done, n, acc);
  return acc;
}

int main(int argc, char **argv) {
  int32_t n = argc > 1 ? (int32_t)strtol(argv[1], NULL, 10) : 100;
  oracle_start();
  return run(n) == 0 ? 1 : 0;
}
