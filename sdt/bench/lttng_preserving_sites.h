// The SDT sites of xsdt-bench-lttng built with the opt-in
// register-preserving call (lttng_preserving_sites.cpp).
#ifndef XSDT_BENCH_LTTNG_PRESERVING_SITES_H
#define XSDT_BENCH_LTTNG_PRESERVING_SITES_H

// The payloads of lttng_bench.cpp's sdt1 and sdt4 (argument k is a0 + k,
// then the string), at probes xsdt_sdt::site:args1p and args4p.
long sdt1_preserving(long a0, const char *s);
long sdt4_preserving(long a0, const char *s);

#endif // XSDT_BENCH_LTTNG_PRESERVING_SITES_H
