/* Volatile values as arguments: volatile globals of every kind, volatile locals and parameters, reads through pointers to volatile, volatile struct members and array elements. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile int8_t vol_i8 = -100;
volatile uint16_t vol_u16 = 65000;
volatile int32_t vol_i32 = -2000000000;
volatile uint32_t vol_u32 = 4000000001u;
volatile int64_t vol_i64 = INT64_MIN + 1;
volatile uint64_t vol_u64 = UINT64_MAX - 1;
volatile float vol_float = -1.5e10f;
volatile double vol_double = 1e-300;
volatile _Bool vol_bool = 1;
int target = 5;
int *volatile vol_ptr = &target;

struct sample {
  volatile short level;
  volatile unsigned long long stamp;
  volatile double ratio;
};

volatile int vol_array[4] = {10, -20, 30, -40};

__attribute__((noinline)) void globals(void) {
  ORACLE_PROBE(corpus, volatile_globals, vol_i8, vol_u16, vol_i32, vol_u32,
               vol_i64, vol_u64, vol_float, vol_double, vol_bool, vol_ptr);
}

__attribute__((noinline)) void locals(int seed) {
  volatile char c = (char)(seed + 60);
  volatile unsigned short us = (unsigned short)(seed * 1000);
  volatile long long ll = seed * -1000000000000LL;
  volatile double d = seed / 8.0;
  ORACLE_PROBE(corpus, volatile_locals, c, us, ll, d);
}

__attribute__((noinline)) void parameters(volatile int a, volatile double b,
                                          volatile uint64_t c) {
  ORACLE_PROBE(corpus, volatile_params, a, b, c);
}

__attribute__((noinline)) void pointees(const volatile struct sample *s,
                                        const volatile int *p, int i) {
  ORACLE_PROBE(corpus, volatile_pointees, s->level, s->stamp, s->ratio, *p,
               p[i], vol_array[i + 1]);
}

int main(void) {
  struct sample s = {-321, 0xfedcba9876543210ULL, 0.0625};
  oracle_start();
  globals();
  locals(3);
  parameters(-77, 3.25, 0x8000000000000001ULL);
  pointees(&s, vol_array, 2);
  /* The values change between hits. */
  vol_i8 = 101;
  vol_u64 = 42;
  vol_double = -vol_double;
  vol_ptr = 0;
  globals();
  return 0;
}
