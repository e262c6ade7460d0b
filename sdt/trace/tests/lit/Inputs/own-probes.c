/* A program that enables probes of its own with libxsdt (MODE: "trap" for
 * xsdt_enable, "jump" for xsdt_enable_jump) while xsdt-trace's agent, with
 * a libxsdt of its own, traces other probes of it: 200 rounds, each firing
 * app:own(i) (the program's handler sums i) and app:traced(i, 3 * i) (the
 * trace's). Both must see every hit: the program prints its own count and
 * sum, 200 and 19900. */
#include <xsdt/runtime.h>
#include <xsdt/usdt.h>

#include <stdio.h>
#include <string.h>

static volatile long own_hits, own_sum;

static void on_own(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)u;
  if (argc == 1) {
    ++own_hits;
    own_sum += (long)a[0].bits;
  }
}

__attribute__((noinline)) static void own(long i) { XSDT_PROBE(app, own, i); }

__attribute__((noinline)) static void traced(long i) {
  XSDT_PROBE(app, traced, i, 3 * i);
}

int main(int argc, char **argv) {
  const int jump = argc > 1 && strcmp(argv[1], "jump") == 0;
  xsdt_error err;
  int n = jump ? xsdt_enable_jump("app:own", on_own, NULL, &err)
               : xsdt_enable("app:own", on_own, NULL, &err);
  if (n != 1) {
    printf("enabling app:own: %d (%s)\n", n, err.message);
    return 1;
  }
  for (long i = 0; i < 200; ++i) {
    own(i);
    traced(i);
  }
  if (xsdt_disable("app:own", &err) != 1)
    printf("disabling app:own: %s\n", err.message);
  printf("own: %ld hits, sum %ld\n", own_hits, own_sum);
  return 0;
}
