// One SDT site built with the opt-in register-preserving call
// (XSDT_SDT_PRESERVING_CALL, which must come before <xsdt/sdt.h> and so
// applies to a whole translation unit): what xsdt-bench's
// BM_sdt_hit/jump_preserving adds to an enabled hit, next to the plain
// call of BM_sdt_hit/jump. Where the arch has no such call, the site makes
// the plain call.
#define XSDT_SDT_PRESERVING_CALL 1
#include "preserving_site.h"

#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(xsdt_bench); // defined in bench.cpp
SDT_PROBE_DEFINE1(xsdt_bench, , call, hit_preserving, "long");

// noipa where the compiler has it: see XSDT_BENCH_OPAQUE in bench.cpp.
#if defined(__clang__)
__attribute__((noinline))
#else
__attribute__((noipa))
#endif
void sdt_traced_call_preserving(long x) {
  SDT_PROBE1(xsdt_bench, , call, hit_preserving, x);
  __asm__ __volatile__("" : : "r"(x) : "memory");
}
