/* Second translation unit of semaphore.c: probes through a semaphore defined elsewhere (XSDT_SEMAPHORE_DECLARE). */
#include <xsdt/usdt.h>

XSDT_SEMAPHORE_DECLARE(corpus, guarded);

extern int side_effects;

__attribute__((noinline)) void other_site(int value) {
  XSDT_PROBE_GUARDED(corpus, guarded, value * 2, ++side_effects);
}

int other_enabled(void) { return XSDT_PROBE_ENABLED(corpus, guarded); }
