// x86-64's USDT jump entry and the vector state (runtime/usdt_jump.cpp):
// upper halves the interrupted code holds come back whole across a hit
// whose handler clears them, and upper halves that were clean stay clean
// (a dirty state would slow every legacy-SSE instruction after the hit).
// The values come from the test's own constants.
#include "xsdt/runtime.h"

#include <xsdt/usdt.h>

#include <gtest/gtest.h>

#include <cpuid.h>
#include <cstdint>
#include <cstring>

namespace {

std::uint64_t xcr0() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
    return 0;
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (std::uint64_t{hi} << 32) | lo;
}

bool os_keeps(std::uint64_t components) {
  return (xcr0() & components) == components;
}

bool has_xinuse() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return os_keeps(0x6) && __get_cpuid_count(0xd, 1, &a, &b, &c, &d) &&
         (a & (1u << 2));
}

std::uint64_t xinuse() {
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return (std::uint64_t{hi} << 32) | lo;
}

// A handler that leaves every upper half clear and runs legacy SSE code,
// as compiled C++ does.
int g_hits = 0;
void clearing_handler(const xsdt_probe_info *, int argc, const xsdt_arg *args,
                      void *) {
  asm volatile("vzeroupper" ::: "memory");
  volatile double sum = 0;
  for (int i = 0; i < argc; ++i)
    sum = sum + static_cast<double>(static_cast<long>(args[i].bits));
  ++g_hits;
}

struct Enabled {
  explicit Enabled(const char *probe) : probe(probe) {
    xsdt_error err{};
    ok = xsdt_enable_jump(probe, clearing_handler, nullptr, &err) == 1;
    EXPECT_TRUE(ok) << err.message;
  }
  ~Enabled() {
    xsdt_error err{};
    EXPECT_EQ(xsdt_disable(probe, &err), 1) << err.message;
  }
  const char *probe;
  bool ok = false;
};

// 32 bytes in %ymm8 and %ymm15 across the site.
[[gnu::target("avx"), gnu::noinline]] void ymm_across_site(
    const unsigned char *in, unsigned char *out, long tag) {
  asm volatile("vmovdqu (%0), %%ymm8\n vmovdqu 32(%0), %%ymm15" ::"r"(in)
               : "xmm8", "xmm15");
  XSDT_PROBE(vecstate, ymm, tag);
  asm volatile("vmovdqu %%ymm8, (%0)\n vmovdqu %%ymm15, 32(%0)\n"
               "vzeroupper" ::"r"(out)
               : "xmm8", "xmm15", "memory");
}

// 64 bytes in %zmm9 and %zmm24 across the site.
[[gnu::target("avx512f"), gnu::noinline]] void zmm_across_site(
    const unsigned char *in, unsigned char *out, long tag) {
  asm volatile("vmovdqu64 (%0), %%zmm9\n vmovdqu64 64(%0), %%zmm24" ::"r"(in)
               : "xmm9", "xmm24");
  XSDT_PROBE(vecstate, zmm, tag);
  asm volatile("vmovdqu64 %%zmm9, (%0)\n vmovdqu64 %%zmm24, 64(%0)\n"
               "vzeroupper" ::"r"(out)
               : "xmm9", "xmm24", "memory");
}

// XINUSE right after the site, the upper halves clean before it.
[[gnu::target("avx"), gnu::noinline]] std::uint64_t xinuse_after_site() {
  asm volatile("vzeroupper" ::: "memory");
  XSDT_PROBE(vecstate, clean, 1L);
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return (std::uint64_t{hi} << 32) | lo;
}

// What the CPU itself reports for clean upper halves given back their
// 128-bit registers: the baseline the site is held to.
[[gnu::target("avx"), gnu::noinline]] std::uint64_t xinuse_reference() {
  alignas(16) static const unsigned char zeros[16] = {};
  asm volatile("vzeroupper\n vmovdqa (%0), %%xmm0\n vmovdqa (%0), %%xmm8" ::"r"(
                   zeros)
               : "xmm0", "xmm8");
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return (std::uint64_t{hi} << 32) | lo;
}

TEST(X86_64VectorState, DirtyYmmUpperHalvesSurvive) {
  if (!os_keeps(0x6))
    GTEST_SKIP() << "the OS keeps no AVX state here";
  unsigned char in[64], out[64] = {};
  for (int i = 0; i < 64; ++i)
    in[i] = static_cast<unsigned char>(0xa0 + i);
  Enabled e("vecstate:ymm");
  ASSERT_TRUE(e.ok);
  const int before = g_hits;
  ymm_across_site(in, out, 7);
  EXPECT_EQ(g_hits, before + 1);
  EXPECT_EQ(std::memcmp(in, out, 64), 0);
}

TEST(X86_64VectorState, DirtyZmmUpperHalvesSurvive) {
  if (!os_keeps(0xe6))
    GTEST_SKIP() << "the OS keeps no AVX-512 state here";
  unsigned char in[128], out[128] = {};
  for (int i = 0; i < 128; ++i)
    in[i] = static_cast<unsigned char>(0x11 * (i % 15) + i);
  Enabled e("vecstate:zmm");
  ASSERT_TRUE(e.ok);
  const int before = g_hits;
  zmm_across_site(in, out, 9);
  EXPECT_EQ(g_hits, before + 1);
  EXPECT_EQ(std::memcmp(in, out, 128), 0);
}

TEST(X86_64VectorState, CleanUpperHalvesStayClean) {
  if (!has_xinuse())
    GTEST_SKIP() << "no XGETBV with ECX=1 here";
  // YMM_Hi128 (bit 2) and ZMM_Hi256 (bit 6): the halves legacy SSE sees.
  constexpr std::uint64_t kUpper = 0x44;
  const std::uint64_t reference = xinuse_reference() & kUpper;
  if (reference != 0)
    GTEST_SKIP() << "this CPU reports clean halves as in use";
  Enabled e("vecstate:clean");
  ASSERT_TRUE(e.ok);
  const int before = g_hits;
  EXPECT_EQ(xinuse_after_site() & kUpper, 0u);
  EXPECT_EQ(g_hits, before + 1);
  (void)xinuse;
}

} // namespace
