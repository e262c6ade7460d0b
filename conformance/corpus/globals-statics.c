/* Global and static variables as arguments: int, long long, double, long, pointers, a function-local static. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* Every variable is written at run time (bump_all), so the compiler cannot
 * fold it into a constant: each probe reads memory named by a symbol, which
 * the spec must NOT name (no sym(%rip), sym@GOTOFF, #:lo12:sym). */
int global_int = 11;
long long global_llong = -12000000000LL;
double global_double = 13.5;
long global_long = -14;
int *global_ptr = &global_int;
unsigned short global_ushort = 15;
static int file_static_int = -16;
static unsigned long long file_static_ull = 17000000000ULL;
static float file_static_float = 1.5f;

__attribute__((noinline)) void bump_all(int by) {
  global_int += by;
  global_llong -= by;
  global_double += by;
  global_long -= by;
  global_ushort += by;
  file_static_int -= by;
  file_static_ull += by;
  file_static_float += by;
  global_ptr = by > 0 ? &global_int : &file_static_int;
}

__attribute__((noinline)) int counter(void) {
  static int calls = 100;
  calls++;
  ORACLE_PROBE(corpus, function_static, calls);
  return calls;
}

__attribute__((noinline)) void probe_globals(void) {
  ORACLE_PROBE(corpus, global_int, global_int);
  ORACLE_PROBE(corpus, global_llong, global_llong);
  ORACLE_PROBE(corpus, global_double, global_double);
  ORACLE_PROBE(corpus, global_ushort, global_ushort);
  ORACLE_PROBE(corpus, file_static_int, file_static_int);
  ORACLE_PROBE(corpus, file_static_ull, file_static_ull);
  ORACLE_PROBE(corpus, file_static_float, file_static_float);
  ORACLE_PROBE(corpus, global_long, global_long);
  ORACLE_PROBE(corpus, global_ptr, global_ptr);
  ORACLE_PROBE(corpus, global_address, &global_int);
  ORACLE_PROBE(corpus, static_address, &file_static_ull);
  /* Several globals in one probe. */
  ORACLE_PROBE(corpus, globals_mixed, global_int, global_llong, global_double,
             global_ushort, file_static_int, file_static_ull,
             file_static_float, *global_ptr);
}

int main(void) {
  oracle_start();
  bump_all(1);
  probe_globals();
  return counter() == 101 ? 0 : 1;
}
