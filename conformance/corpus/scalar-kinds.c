/* Scalar kinds: signed/unsigned/plain char, _Bool, enums, object/function/string/array pointers, float and double. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* GCC and clang give an enum with a negative enumerator the type int and an
 * enum without one the type unsigned int. */
enum with_negative { NEG_LOW = -3, NEG_HIGH = 4 };
enum without_negative { POS_LOW, POS_HIGH = 7 };

volatile signed char src_sc = -5;
volatile unsigned char src_uc = 250;
volatile char src_c = 'x';
volatile int src_flag = 1;
volatile int src_enum_index = 1;
volatile float src_f = 3.5f;
volatile double src_d = -0.125;

int object = 42;
const char text[] = "scalar-kinds";

__attribute__((noinline)) void callee(void) {}

__attribute__((noinline)) void chars(signed char sc, unsigned char uc, char c) {
  ORACLE_PROBE(corpus, schar, sc);
  ORACLE_PROBE(corpus, uchar, uc);
  ORACLE_PROBE(corpus, plain_char, c);
}

__attribute__((noinline)) void bools(_Bool b) { ORACLE_PROBE(corpus, bool, b); }

__attribute__((noinline)) void enums(enum with_negative n,
                                     enum without_negative p) {
  ORACLE_PROBE(corpus, enum_negative, n);
  ORACLE_PROBE(corpus, enum_nonnegative, p);
}

/* Arrays decay to pointers: a real array object, and an array parameter
 * (where a plain sizeof would trip -Wsizeof-array-argument). */
__attribute__((noinline)) void array_parameter(int a[3]) {
  ORACLE_PROBE(corpus, ptr_array_param, a);
}

__attribute__((noinline)) void pointers(int *obj, void (*fn)(void),
                                        const char *str) {
  int local_array[3] = {obj[0], obj[0] + 1, obj[0] + 2};
  array_parameter(local_array);
  ORACLE_PROBE(corpus, ptr_object, obj);
  ORACLE_PROBE(corpus, ptr_function, fn);
  ORACLE_PROBE(corpus, ptr_string, str);
  ORACLE_PROBE(corpus, ptr_array, local_array);
  fn();
}

__attribute__((noinline)) void floats(float f, double d) {
  ORACLE_PROBE(corpus, float_param, f);
  ORACLE_PROBE(corpus, double_param, d);
  ORACLE_PROBE(corpus, float_computed, f * f + 0.5f);
  ORACLE_PROBE(corpus, double_computed, d * f - 1.0);
}

int main(void) {
  oracle_start();
  chars(src_sc, src_uc, src_c);
  bools(src_flag != 0);
  enums(src_enum_index ? NEG_LOW : NEG_HIGH,
        src_enum_index ? POS_HIGH : POS_LOW);
  pointers(&object, callee, text);
  floats(src_f, src_d);
  return 0;
}
