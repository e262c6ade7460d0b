/* Globals and statics read only by the probe, each alone in its function:
 * the first object of a section anchor is where gcc's "nor" operands become
 * [x0, #:lo12:.LANCHOR0] on aarch64 and sym(%rip) / sym@GOTOFF on x86. */
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

int lone_bss_int;
long long lone_data_llong = -7000000000LL;
static int lone_static_int = 5;
static double lone_static_double;

__attribute__((noinline)) void probe_bss_int(void) {
  ORACLE_PROBE(corpus, lone_bss_int, lone_bss_int);
}

__attribute__((noinline)) void probe_data_llong(void) {
  ORACLE_PROBE(corpus, lone_data_llong, lone_data_llong);
}

__attribute__((noinline)) void probe_static_int(void) {
  ORACLE_PROBE(corpus, lone_static_int, lone_static_int);
}

__attribute__((noinline)) void probe_static_double(void) {
  ORACLE_PROBE(corpus, lone_static_double, lone_static_double);
}

__attribute__((noinline)) void bump(int by) {
  lone_bss_int += by;
  lone_data_llong -= by;
  lone_static_int += by;
  lone_static_double += by;
}

int main(void) {
  oracle_start();
  bump(1);
  probe_bss_int();
  probe_data_llong();
  probe_static_int();
  probe_static_double();
  return 0;
}
