/* A library of SDT(9) probes that the test programs dlopen after an
 * enable (late-main.c). LATE_MODULE names its module so that two builds of
 * it are two libraries. */
#include <xsdt/sdt.h>

#ifndef LATE_MODULE
#define LATE_MODULE liba
#endif

SDT_PROVIDER_DEFINE(late);
SDT_PROBE_DEFINE2(late, LATE_MODULE, f, hit, "int", "long long");
SDT_PROBE_DEFINE1(late, LATE_MODULE, f, narrowed, "int");
SDT_PROVIDER_DEFINE(other);
SDT_PROBE_DEFINE1(other, LATE_MODULE, f, miss, "int");

__attribute__((noinline)) int late_fire(int x, long long y) {
  SDT_PROBE2(late, LATE_MODULE, f, hit, x, y);
  SDT_PROBE1(late, LATE_MODULE, f, narrowed, x + 1);
  SDT_PROBE1(other, LATE_MODULE, f, miss, x + 2);
  return x;
}
