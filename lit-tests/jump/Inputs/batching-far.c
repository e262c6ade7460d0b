/* The far sites of batching.c: probes g and h, in another translation unit
 * linked after batching-pad.c. */
#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(jp);
SDT_PROBE_DECLARE(jp, p, f, g);
SDT_PROBE_DECLARE(jp, p, f, h);

void fire_far(int x);
__attribute__((noinline)) void fire_far(int x) {
  SDT_PROBE1(jp, p, f, g, x + 6);
  SDT_PROBE1(jp, p, f, h, x + 7);
}
