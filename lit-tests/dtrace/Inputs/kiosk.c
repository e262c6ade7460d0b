/* Fires each probe of kiosk.d through the macros of its generated header,
 * with the value oracle checking every argument, and reports what the
 * _ENABLED() macros said before, while and after the tracer (the oracle,
 * through libxsdt) held the probes. */
#include "kiosk.h"
#include <stdio.h>

static char window[] = "north";

__attribute__((noinline)) static void sell(int seat, long price) {
  ORACLE_GENERATED(KIOSK_TICKET_SOLD(seat, price), kiosk, ticket__sold, seat,
                   price);
}

static void report(const char *when) {
  printf("%s: boot=%d ticket_sold=%d queue=%d\n", when, KIOSK_BOOT_ENABLED() != 0,
         KIOSK_TICKET_SOLD_ENABLED() != 0, KIOSK_QUEUE_ENABLED() != 0);
}

int main(void) {
  report("before");
  oracle_start();
  report("during");
  ORACLE_GENERATED(KIOSK_BOOT(), kiosk, boot);
  sell(17, -250000L);
  ORACLE_GENERATED(KIOSK_QUEUE(3u, window, &window[2]), kiosk, queue, 3u,
                   window, &window[2]);
  /* Arguments evaluated only while a tracer holds the probe: the guard
   * every provider-header user writes. */
  if (KIOSK_TICKET_SOLD_ENABLED())
    sell(18, 99L);
  oracle_stop();
  report("after");
  return 0;
}
