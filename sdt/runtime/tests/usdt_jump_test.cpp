// Host unit tests of USDT jump mode (xsdt_enable_jump): probes in this
// binary, enabled, hit and disabled. The expected values come from the
// probe call sites and from the functions' own arithmetic, never from the
// decoder. On an arch without the mode (xsdt_usdt_jumps() == 0) the same
// calls must trap, which the site bytes show.
#include "xsdt/runtime.h"

#include "usdt_test_support.h"

#define XSDT_FLOAT_SUFFIX 1
#include <xsdt/usdt.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

XSDT_SEMAPHORE(rtjump, guarded);

namespace {

using usdt_test::Hits;
using usdt_test::record;
using usdt_test::site_of;
using usdt_test::site_text;

__attribute__((noinline)) void fire_values(int a, unsigned char b, short c,
                                           long long d, double e,
                                           const char *p) {
  XSDT_PROBE(rtjump, values, a, b, c, d, e, p);
}

// A leaf whose locals live below the stack pointer (the red zone, where
// the ABI has one): a stub that pushed there would change the sum.
__attribute__((noinline)) long leaf_sum(long a, long b) {
  volatile long buf[12];
  for (int i = 0; i < 12; ++i)
    buf[i] = a * i + b;
  XSDT_PROBE(rtjump, leaf, a, b);
  long sum = 0;
  for (int i = 0; i < 12; ++i)
    sum += buf[i];
  return sum;
}

// Values held in floating-point registers across the site (the empty asm
// statements before and after it want them there), which the handler below
// clobbers.
__attribute__((noinline)) double vector_live(double x) {
  double a = x * 1.5, b = x * 2.5, c = x * 3.5, d = x * 4.5, e = x * 5.5,
         f = x * 6.5, g = x * 7.5, h = x * 8.5;
  // The arch's constraint (arch.json, expect.fp_register_constraint).
#ifdef XSDT_TEST_FP_CONSTRAINT
#define XSDT_TEST_IN_FP_REGISTERS(v) XSDT_TEST_FP_CONSTRAINT(v)
#define XSDT_TEST_HOLD_IN_FP_REGISTERS()                                       \
  asm volatile(""                                                              \
               : XSDT_TEST_IN_FP_REGISTERS(a), XSDT_TEST_IN_FP_REGISTERS(b),   \
                 XSDT_TEST_IN_FP_REGISTERS(c), XSDT_TEST_IN_FP_REGISTERS(d),   \
                 XSDT_TEST_IN_FP_REGISTERS(e), XSDT_TEST_IN_FP_REGISTERS(f),   \
                 XSDT_TEST_IN_FP_REGISTERS(g), XSDT_TEST_IN_FP_REGISTERS(h))
#else
#define XSDT_TEST_HOLD_IN_FP_REGISTERS()
#endif
  XSDT_TEST_HOLD_IN_FP_REGISTERS();
  XSDT_PROBE(rtjump, vectors, x);
  XSDT_TEST_HOLD_IN_FP_REGISTERS();
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

// Uses the vector registers: libc's memset and memcmp, and arithmetic.
void clobber_vectors(const xsdt_probe_info *, int, const xsdt_arg *args,
                     void *user) {
  static unsigned char buf[8192];
  std::memset(buf, static_cast<int>(args[0].bits), sizeof buf);
  volatile double v = args[0].as_double;
  for (int i = 0; i < 16; ++i)
    v = v * 0.75 + 1.25;
  (void)v;
  static_cast<Hits *>(user)->count.fetch_add(buf[100] == buf[8000] ? 1 : 0);
}

__attribute__((noinline)) void fire_counter(long i) {
  XSDT_PROBE(rtjump, counter, i);
}

__attribute__((noinline)) void fire_guarded(int i) {
  XSDT_PROBE_GUARDED(rtjump, guarded, i);
}

TEST(UsdtJump, DecodesTheArgumentsTheSourcePassed) {
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable_jump("rtjump:values", record, &h, &err), 1)
      << err.message;
  const char *text = "hello";
  fire_values(-7, 200, -300, -5000000000LL, 2.5, text);
  fire_values(-7, 200, -300, -5000000000LL, 2.5, text);
  EXPECT_EQ(h.count.load(), 2);
  EXPECT_EQ(h.argc, 6);
  EXPECT_EQ(h.valid, 1);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[0]), -7);
  EXPECT_EQ(h.bits[1], 200u);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[2]), -300);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[3]), -5000000000LL);
  EXPECT_EQ(h.dbl[4], 2.5);
  EXPECT_EQ(h.bits[5], reinterpret_cast<std::uintptr_t>(text));
  ASSERT_EQ(xsdt_disable("rtjump:values", &err), 1) << err.message;
  fire_values(1, 2, 3, 4, 5, text);
  EXPECT_EQ(h.count.load(), 2);
}

// A handler's info says how the hit came: jumped 1 through a jump site
// (where the arch has the mode), 0 through a trap; xsdt_list's says 0.
void note_jumped(const xsdt_probe_info *info, int, const xsdt_arg *,
                 void *user) {
  static_cast<std::vector<int> *>(user)->push_back(info->jumped);
}

void list_jumped(const xsdt_probe_info *info, void *user) {
  if (std::string(info->provider) + ":" + info->name == "rtjump:values")
    static_cast<std::vector<int> *>(user)->push_back(info->jumped);
}

TEST(UsdtJump, InfoSaysWhetherTheHitJumped) {
  std::vector<int> seen;
  xsdt_error err;
  const char *text = "x";
  ASSERT_EQ(xsdt_enable_jump("rtjump:values", note_jumped, &seen, &err), 1)
      << err.message;
  fire_values(1, 2, 3, 4, 5.0, text);
  ASSERT_EQ(xsdt_disable("rtjump:values", &err), 1) << err.message;
  ASSERT_EQ(xsdt_enable("rtjump:values", note_jumped, &seen, &err), 1)
      << err.message;
  fire_values(1, 2, 3, 4, 5.0, text);
  ASSERT_EQ(xsdt_disable("rtjump:values", &err), 1) << err.message;
  EXPECT_EQ(seen, (std::vector<int>{xsdt_usdt_jumps(), 0}));
  std::vector<int> listed;
  ASSERT_GT(xsdt_list(list_jumped, &listed, &err), 0) << err.message;
  EXPECT_EQ(listed, std::vector<int>{0});
}

// Enabled, the site holds neither its NOP nor its trap where the arch has
// the mode (the branch), the trap where it has not; disabled, its NOP.
TEST(UsdtJump, SiteBytes) {
  const std::uintptr_t pc = site_of("rtjump:counter");
  ASSERT_NE(pc, 0u);
  EXPECT_EQ(site_text(pc), XSDT_TEST_SITE_NOP);
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable_jump("rtjump:counter", record, &h, &err), 1)
      << err.message;
  if (xsdt_usdt_jumps()) {
    EXPECT_NE(site_text(pc), XSDT_TEST_SITE_NOP);
    EXPECT_NE(site_text(pc), XSDT_TEST_SITE_TRAP);
  } else {
    EXPECT_EQ(site_text(pc), XSDT_TEST_SITE_TRAP);
  }
  fire_counter(41);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.bits[0], 41u);
  EXPECT_EQ(xsdt_enable_jump("rtjump:counter", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_ALREADY_ENABLED);
  ASSERT_EQ(xsdt_disable("rtjump:counter", &err), 1) << err.message;
  EXPECT_EQ(site_text(pc), XSDT_TEST_SITE_NOP);
  // Enabled again: the site's stub serves the new enabling.
  ASSERT_EQ(xsdt_enable_jump("rtjump:counter", record, &h, &err), 1)
      << err.message;
  fire_counter(42);
  EXPECT_EQ(h.count.load(), 2);
  EXPECT_EQ(h.bits[0], 42u);
  ASSERT_EQ(xsdt_disable("rtjump:counter", &err), 1) << err.message;
  EXPECT_EQ(site_text(pc), XSDT_TEST_SITE_NOP);
}

TEST(UsdtJump, LeafKeepsItsRedZone) {
  Hits h;
  xsdt_error err;
  long expected = 0;
  for (int i = 0; i < 12; ++i)
    expected += 3L * i + 1000;
  ASSERT_EQ(xsdt_enable_jump("rtjump:leaf", record, &h, &err), 1)
      << err.message;
  EXPECT_EQ(leaf_sum(3, 1000), expected);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.bits[0], 3u);
  EXPECT_EQ(h.bits[1], 1000u);
  ASSERT_EQ(xsdt_disable("rtjump:leaf", &err), 1) << err.message;
}

TEST(UsdtJump, VectorRegistersSurviveTheHandler) {
  Hits h;
  xsdt_error err;
  const double x = 1.0 / 3.0;
  const double expected = vector_live(x); // disabled
  ASSERT_EQ(xsdt_enable_jump("rtjump:vectors", clobber_vectors, &h, &err), 1)
      << err.message;
  EXPECT_EQ(vector_live(x), expected);
  EXPECT_EQ(h.count.load(), 1);
  ASSERT_EQ(xsdt_disable("rtjump:vectors", &err), 1) << err.message;
}

TEST(UsdtJump, SemaphoreCounts) {
  Hits h;
  xsdt_error err;
  EXPECT_FALSE(XSDT_PROBE_ENABLED(rtjump, guarded));
  ASSERT_EQ(xsdt_enable_jump("rtjump:guarded", record, &h, &err), 1)
      << err.message;
  EXPECT_TRUE(XSDT_PROBE_ENABLED(rtjump, guarded));
  fire_guarded(9);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.bits[0], 9u);
  ASSERT_EQ(xsdt_disable("rtjump:guarded", &err), 1) << err.message;
  EXPECT_FALSE(XSDT_PROBE_ENABLED(rtjump, guarded));
}

// Threads hit the site while it is enabled and disabled over and over;
// once xsdt_disable returns, no handler of the site runs until it is
// enabled again, and every hit decodes what its thread passed.
struct Flight {
  std::atomic<int> inside{0};
  std::atomic<long> hits{0};
  std::atomic<long> wrong{0};
};

void in_flight(const xsdt_probe_info *, int argc, const xsdt_arg *args,
               void *user) {
  auto *f = static_cast<Flight *>(user);
  f->inside.fetch_add(1);
  if (argc != 1 || !args[0].valid || args[0].bits % 7 != 0)
    f->wrong.fetch_add(1);
  volatile int spin = 0;
  while (spin < 200)
    spin = spin + 1;
  f->hits.fetch_add(1);
  f->inside.fetch_sub(1);
}

TEST(UsdtJump, NoHandlerRunsAfterDisableReturns) {
  Flight f;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&stop, t] {
      for (long i = t; !stop.load(std::memory_order_relaxed); ++i)
        fire_counter(7 * i);
    });
  xsdt_error err;
  long late = 0;
  for (int round = 0; round < 300; ++round) {
    ASSERT_EQ(xsdt_enable_jump("rtjump:counter", in_flight, &f, &err), 1)
        << err.message;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    ASSERT_EQ(xsdt_disable("rtjump:counter", &err), 1) << err.message;
    late += f.inside.load();
    const long after = f.hits.load();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
    late += f.hits.load() != after;
  }
  stop.store(true);
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(late, 0);
  EXPECT_EQ(f.wrong.load(), 0);
  EXPECT_GT(f.hits.load(), 300);
}

} // namespace
