/* An example of xsdt from an installed tree: probes described in shop.d,
 * and libxsdt enabling them in this very process (no tracer needed), with
 * each argument the handler receives compared with what the program passed.
 * Exits 0 when every hit arrived with its arguments intact. */
#include <stdio.h>
#include <string.h>
#include <xsdt/runtime.h>

#include "shop.h"

enum { ORDERS = 3 };

static const char *const items[ORDERS] = {"tea", "bread", "soap"};
static int placed_hits, shipped_hits, mismatches;

static void on_probe(const xsdt_probe_info *probe, int argc,
                     const xsdt_arg *args, void *user) {
  (void)user;
  if (strcmp(probe->name, "order__placed") == 0 && argc == 3) {
    int id = (int)args[0].bits;
    const char *item = (const char *)(uintptr_t)args[1].bits;
    unsigned long cents = (unsigned long)args[2].bits;
    printf("shop:order__placed id=%d item=%s cents=%lu\n", id, item, cents);
    if (id < 1 || id > ORDERS || strcmp(item, items[id - 1]) != 0 ||
        cents != 250UL * (unsigned long)id)
      ++mismatches;
    ++placed_hits;
  } else if (strcmp(probe->name, "order__shipped") == 0 && argc == 1) {
    int id = (int)args[0].bits;
    printf("shop:order__shipped id=%d\n", id);
    if (id < 1 || id > ORDERS)
      ++mismatches;
    ++shipped_hits;
  } else {
    printf("unexpected probe %s:%s with %d arguments\n", probe->provider,
           probe->name, argc);
    ++mismatches;
  }
}

static void run_shop(void) {
  for (int id = 1; id <= ORDERS; ++id) {
    if (SHOP_ORDER_PLACED_ENABLED())
      SHOP_ORDER_PLACED(id, items[id - 1], 250UL * (unsigned long)id);
    SHOP_ORDER_SHIPPED(id);
  }
}

int main(void) {
  xsdt_error err;
  run_shop(); /* not enabled yet: no hits */
  /* Both return the number of sites, or -1. */
  if (xsdt_enable("shop:*", on_probe, NULL, &err) < 0) {
    fprintf(stderr, "shop: %s\n", err.message);
    return 1;
  }
  run_shop();
  if (xsdt_disable("shop:*", &err) < 0) {
    fprintf(stderr, "shop: %s\n", err.message);
    return 1;
  }
  run_shop(); /* disabled again: no hits */
  printf("shop: %d placed, %d shipped, %d mismatches\n", placed_hits,
         shipped_hits, mismatches);
  return placed_hits == ORDERS && shipped_hits == ORDERS && mismatches == 0
             ? 0
             : 1;
}
