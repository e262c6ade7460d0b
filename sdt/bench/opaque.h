// XSDT_BENCH_OPAQUE: a benchmark's baseline and probed functions must stay
// real calls. gcc's noipa also stops the interprocedural analyses that
// could find a body empty and drop the call, or specialise (clone) a
// probed function and so give it two sites; clang has no noipa, and
// noinline is what it needs.
#ifndef XSDT_BENCH_OPAQUE_H
#define XSDT_BENCH_OPAQUE_H

#if defined(__clang__)
#define XSDT_BENCH_OPAQUE __attribute__((noinline))
#else
#define XSDT_BENCH_OPAQUE __attribute__((noipa))
#endif

#endif
