// The site of preserving_site.cpp, for xsdt-bench.
#ifndef XSDT_BENCH_PRESERVING_SITE_H
#define XSDT_BENCH_PRESERVING_SITE_H

#include <xsdt/sdt.h>

SDT_PROBE_DECLARE(xsdt_bench, , call, hit_preserving);

// Fires xsdt_bench::call:hit_preserving with x, from a site whose
// out-of-line call preserves the registers itself.
void sdt_traced_call_preserving(long x);

#endif // XSDT_BENCH_PRESERVING_SITE_H
