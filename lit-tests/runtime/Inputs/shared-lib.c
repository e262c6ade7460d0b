/* A probe in a shared library (the library of shared-library-main.c). */
#include <xsdt/usdt.h>

XSDT_SEMAPHORE(rtlib, guarded);

__attribute__((noinline)) int rtlib_fire(int x, long long y) {
  XSDT_PROBE(rtlib, hit, x, y);
  XSDT_PROBE_GUARDED(rtlib, guarded, x + 1);
  return x;
}

int rtlib_enabled(void) { return XSDT_PROBE_ENABLED(rtlib, guarded); }
