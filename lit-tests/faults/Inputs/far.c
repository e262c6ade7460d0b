/* The far sites of mprotect.c: probes d and e, in another translation unit
 * linked after pad.c. */
#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(fm);
SDT_PROBE_DECLARE(fm, m, f, d);
SDT_PROBE_DECLARE(fm, m, f, e);

void fire_far(int x);
__attribute__((noinline)) void fire_far(int x) {
  SDT_PROBE2(fm, m, f, d, x + 3, 3 * x + 3);
  SDT_PROBE2(fm, m, f, e, x + 4, 3 * x + 4);
}
