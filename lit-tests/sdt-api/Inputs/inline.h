/* An inline function with a site, emitted (COMDAT) by both inline-a.cpp
 * and inline-b.cpp; its probe is defined once, in inline-a.cpp. */
#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(comdat);
SDT_PROBE_DECLARE(comdat, , , shared);

__attribute__((noinline)) inline int shared_inline(int x) {
  SDT_PROBE1(comdat, , , shared, x);
  return x * 2;
}
