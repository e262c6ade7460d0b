/* The library of replaced.c, built twice: as loaded (probe "hit", x + 3)
 * and as the build that replaces it on disk (-DPROBE=hop -DDELTA=5: other
 * names, other code, the same layout: names of the same length, an
 * immediate of the same size; not 1, which -Os makes an inc on i386). Its stapsdt note is only in the file, so a
 * runtime that trusted the new file would list flib:hop at the old code. */
#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#ifndef PROBE
#define PROBE hit
#endif
#ifndef DELTA
#define DELTA 3
#endif

SDT_PROVIDER_DEFINE(flib);
SDT_PROBE_DEFINE1(flib, l, f, PROBE, "int");

__attribute__((noinline)) int flib_fire(int x) {
  XSDT_PROBE(flib, PROBE, x + DELTA);
  SDT_PROBE1(flib, l, f, PROBE, x + DELTA);
  return x;
}
