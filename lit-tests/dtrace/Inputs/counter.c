/* Fires each probe of counter.d once, arguments 1..n (the twelfth a 64-bit
 * value), through the generated macros with the oracle checking them. */
#include "counter.h"

int main(void) {
  long long last = -81985529216486896LL;
  oracle_start();
  ORACLE_GENERATED(COUNTER_A0(), counter, a0);
  ORACLE_GENERATED(COUNTER_A1(1), counter, a1, 1);
  ORACLE_GENERATED(COUNTER_A2(1, 2), counter, a2, 1, 2);
  ORACLE_GENERATED(COUNTER_A3(1, 2, 3), counter, a3, 1, 2, 3);
  ORACLE_GENERATED(COUNTER_A4(1, 2, 3, 4), counter, a4, 1, 2, 3, 4);
  ORACLE_GENERATED(COUNTER_A5(1, 2, 3, 4, 5), counter, a5, 1, 2, 3, 4, 5);
  ORACLE_GENERATED(COUNTER_A6(1, 2, 3, 4, 5, 6), counter, a6, 1, 2, 3, 4, 5, 6);
  ORACLE_GENERATED(COUNTER_A7(1, 2, 3, 4, 5, 6, 7), counter, a7, 1, 2, 3, 4, 5,
                   6, 7);
  ORACLE_GENERATED(COUNTER_A8(1, 2, 3, 4, 5, 6, 7, 8), counter, a8, 1, 2, 3, 4,
                   5, 6, 7, 8);
  ORACLE_GENERATED(COUNTER_A9(1, 2, 3, 4, 5, 6, 7, 8, 9), counter, a9, 1, 2, 3,
                   4, 5, 6, 7, 8, 9);
  ORACLE_GENERATED(COUNTER_A10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), counter, a10, 1,
                   2, 3, 4, 5, 6, 7, 8, 9, 10);
  ORACLE_GENERATED(COUNTER_A11(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), counter, a11,
                   1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  ORACLE_GENERATED(COUNTER_A12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, last),
                   counter, a12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, last);
  oracle_stop();
  return 0;
}
