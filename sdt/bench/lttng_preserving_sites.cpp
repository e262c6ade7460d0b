// lttng_bench.cpp's SDT sites again, in a translation unit of their own
// because XSDT_SDT_PRESERVING_CALL must come before <xsdt/sdt.h>: the
// disabled cost of a site whose out-of-line call preserves the registers
// itself (a leaf keeps no frame for it), next to the default plain call's
// and LTTng's.
#define XSDT_SDT_PRESERVING_CALL 1
#include "lttng_preserving_sites.h"

#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(xsdt_sdt); // defined in lttng_bench.cpp
SDT_PROBE_DEFINE2(xsdt_sdt, , site, args1p, "long", "char *");
SDT_PROBE_DEFINE5(xsdt_sdt, , site, args4p, "long", "long", "long", "long",
                  "char *");

#include "opaque.h"

XSDT_BENCH_OPAQUE long sdt1_preserving(long a0, const char *s) {
  SDT_PROBE2(xsdt_sdt, , site, args1p, a0, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long sdt4_preserving(long a0, const char *s) {
  SDT_PROBE5(xsdt_sdt, , site, args4p, a0, a0 + 1, a0 + 2, a0 + 3, s);
  return a0 + (s != nullptr);
}
