// Host tests of the SDT(9) part of libxsdt: probes defined here with
// <xsdt/sdt.h>, enabled in jump and trap mode, hit, disabled. Expected
// values come from the probe call sites; expected bytes from the arch's
// descriptor, held against the copy its arch.json writes down.
#include "xsdt/sdt-runtime.h"

#include "isa.h"
#include "machdep.h"
#include "tsan.h"

#include <xsdt/sdt.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace machdep = xsdt::rt::machdep;
namespace isa = xsdt::rt::isa;

// libxsdt repeats the probe object's layout (it is built without this
// header's include path): both must agree.
static_assert(offsetof(xsdt_sdt_probe, runtime) == sizeof(void *));
static_assert(sizeof(xsdt_sdt_probe) == 2 * sizeof(void *));

SDT_PROVIDER_DEFINE(srt);
SDT_PROVIDER_DEFINE(srtother);

SDT_PROBE_DEFINE7(srt, unit, , values, "int", "unsigned char", "short",
                  "long long", "unsigned long long", "const char *", "void *");
SDT_PROBE_DEFINE1(srt, unit, , simple, "int");
SDT_PROBE_DEFINE2(srt, unit, , multi, "int", "int");
SDT_PROBE_DEFINE1(srt, unit, , stress, "int");
SDT_PROBE_DEFINE1(srt, unit, , outer, "int");
SDT_PROBE_DEFINE1(srt, unit, , inner, "int");
SDT_PROBE_DEFINE1(srt, unit, , dash__name, "int");
SDT_PROBE_DEFINE(srt, unit, , untyped);
SDT_PROBE_DEFINE1(srtother, unit, , simple, "int");
SDT_PROBE_DEFINE1(srt, unit, , badsite, "int");

// C names, so that the function part of the ids is the plain name.
extern "C" {

__attribute__((noinline)) void fire_values(int a, unsigned char b, short c,
                                           long long d, unsigned long long e,
                                           const char *f, void *g) {
  SDT_PROBE7(srt, unit, , values, a, b, c, d, e, f, g);
}

__attribute__((noinline)) void fire_simple(int i) {
  SDT_PROBE1(srt, unit, , simple, i);
  SDT_PROBE1(srtother, unit, , simple, i);
}

// Four sites of one probe in a page-aligned function: one page run.
__attribute__((noinline, aligned(4096))) void fire_multi(int i) {
  SDT_PROBE2(srt, unit, , multi, i, 1);
  SDT_PROBE2(srt, unit, , multi, i, 2);
  SDT_PROBE2(srt, unit, , multi, i, 3);
  SDT_PROBE2(srt, unit, , multi, i, 4);
}

__attribute__((noinline)) void fire_stress(int i) {
  SDT_PROBE1(srt, unit, , stress, i);
}

__attribute__((noinline)) void fire_inner(int i) {
  SDT_PROBE1(srt, unit, , inner, i);
}

__attribute__((noinline)) void fire_outer(int i) {
  SDT_PROBE1(srt, unit, , outer, i);
}

__attribute__((noinline)) void fire_dashed(int i) {
  SDT_PROBE1(srt, unit, , dash__name, i);
}

__attribute__((noinline)) void fire_untyped() {
  SDT_PROBE0(srt, unit, , untyped);
}

} // extern "C"

// A hand-made site record whose site does not hold the NOP but bytes
// 0xff, which are no arch's NOP and no jump: registration must reject it,
// enable must never write it. The site is as wide as the arch's
// (XSDT_TEST_JUMP_SITE_SIZE, from its arch.json) and lies in .text, where the
// checks want it, but nothing ever executes it or its target.
#define XSDT_TEST_STR_(x) #x
#define XSDT_TEST_STR(x) XSDT_TEST_STR_(x)
#define XSDT_TEST_BAD_BYTES                                                    \
  ".fill " XSDT_TEST_STR(XSDT_TEST_JUMP_SITE_SIZE) ", 1, 0xff"
__asm__(".pushsection .text\n"
        ".balign 16\n"
        "xsdt_test_bad_site: " XSDT_TEST_BAD_BYTES "\n"
        "xsdt_test_bad_target: .fill 16, 1, 0xff\n"
        ".pushsection xsdt_sdt_sites,\"ao\",%progbits,xsdt_test_bad_site\n"
        ".balign 4\n"
        ".4byte xsdt_test_bad_site - .\n"
        ".4byte xsdt_test_bad_target - .\n"
        ".4byte xsdt_sdt_probe_srt_unit__badsite - .\n"
        ".popsection\n"
        ".popsection\n");
extern "C" const unsigned char xsdt_test_bad_site[];

namespace {

struct Hits {
  std::atomic<long> count{0};
  std::uint64_t args[XSDT_SDT_MAX_ARGS] = {};
  const xsdt_sdt_probe_info *probe = nullptr;
};

void record(const xsdt_sdt_probe_info *probe, const std::uint64_t *args,
            void *user) {
  auto *h = static_cast<Hits *>(user);
  h->probe = probe;
  for (int i = 0; i < XSDT_SDT_MAX_ARGS; ++i)
    h->args[i] = args[i];
  h->count.fetch_add(1);
}

void count_only(const xsdt_sdt_probe_info *, const std::uint64_t *,
                void *user) {
  static_cast<std::atomic<long> *>(user)->fetch_add(1,
                                                    std::memory_order_relaxed);
}

const xsdt_sdt_probe_info *probe_named(const char *provider, const char *name) {
  struct Want {
    std::string provider, name;
    const xsdt_sdt_probe_info *info = nullptr;
  } want{provider, name};
  xsdt_error err;
  EXPECT_GT(xsdt_sdt_list(
                [](const xsdt_sdt_probe_info *p, void *user) {
                  auto *w = static_cast<Want *>(user);
                  if (w->provider == p->provider && w->name == p->name)
                    w->info = p;
                },
                &want, &err),
            0)
      << err.message;
  return want.info;
}

struct Site {
  std::uintptr_t site = 0, target = 0;
  xsdt_mode state = XSDT_MODE_AUTO;
  std::string function;
};

// The sites of provider:*:*:name, in address order.
std::vector<Site> sites_of(const char *provider, const char *name) {
  struct Want {
    std::string provider, name;
    std::vector<Site> sites;
  } want{provider, name, {}};
  xsdt_error err;
  EXPECT_GE(xsdt_sdt_list_sites(
                [](const xsdt_sdt_site_info *s, void *user) {
                  auto *w = static_cast<Want *>(user);
                  if (w->provider == s->probe->provider &&
                      w->name == s->probe->name)
                    w->sites.push_back(
                        Site{s->site, s->target, s->state, s->function});
                },
                &want, &err),
            0)
      << err.message;
  std::sort(want.sites.begin(), want.sites.end(),
            [](const Site &a, const Site &b) { return a.site < b.site; });
  return want.sites;
}

Site only_site(const char *provider, const char *name) {
  std::vector<Site> sites = sites_of(provider, name);
  EXPECT_EQ(sites.size(), 1u) << provider << ":" << name;
  return sites.empty() ? Site{} : sites[0];
}

std::string hex(const unsigned char *p, std::size_t n) {
  std::string s;
  char buf[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%02x ", p[i]);
    s += buf;
  }
  return s;
}

// The bytes as arch.json writes them: "0f 1f 44 00 00".
std::string hex_text(const unsigned char *p, std::size_t n) {
  std::string s = hex(p, n);
  if (!s.empty())
    s.pop_back();
  return s;
}

// The site holds exactly the arch's NOP: the descriptor's, which is the
// one arch.json writes down.
::testing::AssertionResult HoldsNop(std::uintptr_t site) {
  const std::size_t n = isa::jump_site_size();
  const auto *bytes = reinterpret_cast<const unsigned char *>(site);
  if (std::memcmp(bytes, isa::site_encodings()[0].nop.data(), n) == 0 &&
      hex_text(bytes, n) == XSDT_TEST_JUMP_SITE_NOP)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "site holds " << hex(bytes, n) << "not the NOP "
         << hex(isa::site_encodings()[0].nop.data(), n)
         << "(arch.json: " XSDT_TEST_JUMP_SITE_NOP << ")";
}

// The site holds a jump to target.
::testing::AssertionResult HoldsJump(const Site &s) {
  std::uintptr_t target = 0;
  const auto *bytes = reinterpret_cast<const unsigned char *>(s.site);
  if (!isa::decode_jump(isa::first_encoding(), s.site, bytes, &target))
    return ::testing::AssertionFailure()
           << "site holds " << hex(bytes, isa::jump_site_size())
           << "not a jump";
  if (target != s.target)
    return ::testing::AssertionFailure()
           << "jump to " << target << " instead of " << s.target;
  return ::testing::AssertionSuccess();
}

// The site holds the arch's trap over the head of the NOP: the
// descriptor's, which is what arch.json writes down.
::testing::AssertionResult HoldsTrap(std::uintptr_t site) {
  const xsdt::SiteEncoding &encoding = isa::site_encodings()[0];
  unsigned char want[16];
  const std::size_t n = isa::jump_site_size();
  std::memcpy(want, isa::site_encodings()[0].nop.data(), n);
  std::memcpy(want, encoding.trap.data(), encoding.trap.size());
  const auto *bytes = reinterpret_cast<const unsigned char *>(site);
  if (std::memcmp(bytes, want, n) == 0 &&
      hex_text(bytes, n) == XSDT_TEST_JUMP_SITE_TRAP)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "site holds " << hex(bytes, n) << "not the trap " << hex(want, n)
         << "(arch.json: " XSDT_TEST_JUMP_SITE_TRAP << ")";
}

xsdt_patch_stats stats() {
  xsdt_patch_stats s{};
  xsdt_get_patch_stats(&s);
  return s;
}

class ModeTest : public ::testing::TestWithParam<xsdt_mode> {};

INSTANTIATE_TEST_SUITE_P(Modes, ModeTest,
                         ::testing::Values(XSDT_MODE_JUMP, XSDT_MODE_TRAP),
                         [](const auto &info) {
                           return std::string(
                               info.param == XSDT_MODE_JUMP ? "Jump" : "Trap");
                         });

// ---- Registration
// ------------------------------------------------------------

TEST(SdtRuntime, ListsProbes) {
  const xsdt_sdt_probe_info *p = probe_named("srt", "values");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->argc, 7);
  EXPECT_EQ(p->typed, 1);
  EXPECT_EQ(p->translated, 0);
  EXPECT_STREQ(p->native_types[0], "int");
  EXPECT_STREQ(p->native_types[6], "void *");
  EXPECT_STREQ(p->translated_types[6], "");
  EXPECT_EQ(p->nsites, 1);
  EXPECT_EQ(p->probe, &xsdt_sdt_probe_srt_unit__values);
  EXPECT_STREQ(p->module, "unit");
  EXPECT_STREQ(p->function, "fire_values");
  EXPECT_EQ(std::string(p->id), std::string(p->provider) + ":" + p->module +
                                    ":" + p->function + ":" + p->name);
  EXPECT_STREQ(p->object, "");

  const xsdt_sdt_probe_info *dashed = probe_named("srt", "dash-name");
  ASSERT_NE(dashed, nullptr);
  const xsdt_sdt_probe_info *untyped = probe_named("srt", "untyped");
  ASSERT_NE(untyped, nullptr);
  EXPECT_EQ(untyped->typed, 0);
  EXPECT_EQ(untyped->argc, 0);

  // A compiler may duplicate an asm goto (each copy has its own record), so
  // four SDT_PROBE2 statements give at least four sites.
  const xsdt_sdt_probe_info *multi = probe_named("srt", "multi");
  ASSERT_NE(multi, nullptr);
  EXPECT_GE(multi->nsites, 4);
  EXPECT_EQ(static_cast<std::size_t>(multi->nsites),
            sites_of("srt", "multi").size());
  for (const Site &s : sites_of("srt", "multi")) {
    EXPECT_EQ(s.function, "fire_multi");
    EXPECT_EQ(s.state, XSDT_MODE_AUTO);
    EXPECT_TRUE(HoldsNop(s.site));
  }
}

TEST(SdtRuntime, InvalidRecordIsReportedAndNeverWritten) {
  std::vector<std::string> messages;
  xsdt_error err;
  int n = xsdt_sdt_list_invalid(
      [](const char *message, void *user) {
        static_cast<std::vector<std::string> *>(user)->push_back(message);
      },
      &messages, &err);
  ASSERT_EQ(n, 1) << err.message;
  ASSERT_EQ(messages.size(), 1u);
  const std::size_t size = isa::jump_site_size();
  ASSERT_EQ(size, std::size_t{XSDT_TEST_JUMP_SITE_SIZE});
  std::string bad_text = "ff";
  for (std::size_t i = 1; i < size; ++i)
    bad_text += " ff";
  EXPECT_NE(messages[0].find(bad_text), std::string::npos) << messages[0];
  EXPECT_NE(
      messages[0].find(std::string(", not the NOP ") + XSDT_TEST_JUMP_SITE_NOP),
      std::string::npos)
      << messages[0];
  EXPECT_TRUE(sites_of("srt", "badsite").empty());
  const xsdt_sdt_probe_info *p = probe_named("srt", "badsite");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->nsites, 0);
  // The probe itself can be enabled: it has no site to write.
  Hits h;
  ASSERT_EQ(xsdt_sdt_enable("srt:::badsite", XSDT_MODE_JUMP, record, &h, &err),
            1)
      << err.message;
  const std::vector<unsigned char> ffs(size, 0xff);
  EXPECT_EQ(std::memcmp(xsdt_test_bad_site, ffs.data(), size), 0);
  ASSERT_EQ(xsdt_sdt_disable("srt:::badsite", &err), 1) << err.message;
  EXPECT_EQ(std::memcmp(xsdt_test_bad_site, ffs.data(), size), 0);
}

// ---- Bytes and values, both modes
// ------------------------------------------------

TEST_P(ModeTest, BytesBeforeDuringAfter) {
  const xsdt_mode mode = GetParam();
  const Site s = only_site("srt", "simple");
  ASSERT_NE(s.site, 0u);
  EXPECT_TRUE(HoldsNop(s.site));
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_sdt_enable("srt:::simple", mode, record, &h, &err), 1)
      << err.message;
  if (mode == XSDT_MODE_JUMP)
    EXPECT_TRUE(HoldsJump(s));
  else
    EXPECT_TRUE(HoldsTrap(s.site));
  EXPECT_EQ(only_site("srt", "simple").state, mode);
  // The other provider's probe in the same function is untouched.
  EXPECT_TRUE(HoldsNop(only_site("srtother", "simple").site));
  fire_simple(41);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.args[0], 41u);
  ASSERT_EQ(xsdt_sdt_disable("srt:::simple", &err), 1) << err.message;
  EXPECT_TRUE(HoldsNop(s.site));
  EXPECT_EQ(only_site("srt", "simple").state, XSDT_MODE_AUTO);
  fire_simple(42);
  EXPECT_EQ(h.count.load(), 1);
}

TEST_P(ModeTest, HandlerSeesTheSourceValues) {
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_sdt_enable("srt:unit:fire_values:values", GetParam(), record,
                            &h, &err),
            1)
      << err.message;
  const char *text = "hello";
  int local = 0;
  fire_values(-7, 200, -300, -5000000000LL, ~0ULL, text, &local);
  ASSERT_EQ(h.count.load(), 1);
  ASSERT_NE(h.probe, nullptr);
  EXPECT_STREQ(h.probe->name, "values");
  EXPECT_EQ(static_cast<std::int64_t>(h.args[0]), -7);
  EXPECT_EQ(h.args[1], 200u);
  EXPECT_EQ(static_cast<std::int64_t>(h.args[2]), -300);
  EXPECT_EQ(static_cast<std::int64_t>(h.args[3]), -5000000000LL);
  EXPECT_EQ(h.args[4], ~0ULL);
  EXPECT_EQ(h.args[5], reinterpret_cast<std::uintptr_t>(text));
  EXPECT_EQ(h.args[6], reinterpret_cast<std::uintptr_t>(&local));
  fire_values(INT_MIN, 0, SHRT_MAX, LLONG_MAX, 0, nullptr, nullptr);
  ASSERT_EQ(h.count.load(), 2);
  EXPECT_EQ(static_cast<std::int64_t>(h.args[0]), INT_MIN);
  EXPECT_EQ(h.args[1], 0u);
  EXPECT_EQ(h.args[2], static_cast<std::uint64_t>(SHRT_MAX));
  EXPECT_EQ(h.args[3], static_cast<std::uint64_t>(LLONG_MAX));
  EXPECT_EQ(h.args[5], 0u);
  ASSERT_EQ(xsdt_sdt_disable("values", &err), 1) << err.message;
  fire_values(1, 2, 3, 4, 5, text, nullptr);
  EXPECT_EQ(h.count.load(), 2);
}

TEST_P(ModeTest, UnusedArgumentsAreZero) {
  Hits h;
  xsdt_error err;
  for (std::uint64_t &a : h.args)
    a = 0xdead;
  ASSERT_EQ(xsdt_sdt_enable("srt:::dash-name", GetParam(), record, &h, &err), 1)
      << err.message;
  fire_dashed(-1);
  ASSERT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.args[0], ~0ULL);
  for (int i = 1; i < XSDT_SDT_MAX_ARGS; ++i)
    EXPECT_EQ(h.args[i], 0u) << "arg " << i;
  ASSERT_EQ(xsdt_sdt_disable("srt:::dash-name", &err), 1) << err.message;
}

// The handler's array is kept in the thread's slot across hits, its unused
// arguments zeroed only after a hit that used them (sdt_fire.cpp, "width"):
// a hit with fewer arguments after one with more still sees zeros, and one
// with more after one with fewer sees all of its own. On one thread and
// with the probes in turn: the order that reuses the array.
TEST_P(ModeTest, UnusedArgumentsAreZeroAfterAWiderHit) {
  Hits wide, narrow;
  xsdt_error err;
  ASSERT_EQ(xsdt_sdt_enable("srt:unit:fire_values:values", GetParam(), record,
                            &wide, &err),
            1)
      << err.message;
  ASSERT_EQ(
      xsdt_sdt_enable("srt:::dash-name", GetParam(), record, &narrow, &err), 1)
      << err.message;
  int local = 0;
  for (int round = 1; round <= 3; ++round) {
    fire_values(-round, 200, -300, -5000000000LL, ~0ULL, "text", &local);
    ASSERT_EQ(wide.count.load(), 2 * round - 1);
    EXPECT_EQ(static_cast<std::int64_t>(wide.args[0]), -round);
    EXPECT_EQ(wide.args[6], reinterpret_cast<std::uintptr_t>(&local));
    fire_dashed(round);
    fire_dashed(round + 1); // the array as the first narrow hit left it
    ASSERT_EQ(narrow.count.load(), 2 * round);
    EXPECT_EQ(narrow.args[0], static_cast<std::uint64_t>(round + 1));
    for (int i = 1; i < XSDT_SDT_MAX_ARGS; ++i)
      EXPECT_EQ(narrow.args[i], 0u) << "arg " << i << ", round " << round;
    fire_values(round, 1, 2, 3, 4, nullptr, nullptr);
    EXPECT_EQ(wide.args[0], static_cast<std::uint64_t>(round));
    EXPECT_EQ(wide.args[4], 4u);
    EXPECT_EQ(wide.args[6], 0u);
  }
  ASSERT_EQ(xsdt_sdt_disable("srt:::values", &err), 1) << err.message;
  ASSERT_EQ(xsdt_sdt_disable("srt:::dash-name", &err), 1) << err.message;
}

TEST_P(ModeTest, ManySitesOnePageRun) {
  const xsdt_mode mode = GetParam();
  std::vector<Site> sites = sites_of("srt", "multi");
  ASSERT_GE(sites.size(), 4u);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t last = sites.back().site + isa::jump_site_size() - 1;
  ASSERT_EQ(sites.front().site / page, last / page)
      << "fire_multi's sites should share a page";

  const xsdt_patch_stats before = stats();
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_sdt_enable("srt:::multi", mode, record, &h, &err), 1)
      << err.message;
  const xsdt_patch_stats enabled = stats();
  EXPECT_EQ(enabled.mprotect_calls - before.mprotect_calls, 2u);
  EXPECT_EQ(enabled.icache_flushes - before.icache_flushes, 1u);
  EXPECT_EQ(enabled.sites_written - before.sites_written, sites.size());
  // The trap-first protocol serializes three times per batch, not per site.
  const bool protocol = mode == XSDT_MODE_JUMP &&
                        isa::jump_needs_trap_first(isa::first_encoding());
  EXPECT_EQ(enabled.serializations - before.serializations, protocol ? 3u : 0u);
  for (const Site &s : sites)
    EXPECT_TRUE(mode == XSDT_MODE_JUMP ? HoldsJump(s) : HoldsTrap(s.site));

  fire_multi(9);
  EXPECT_EQ(h.count.load(), 4);
  EXPECT_EQ(h.args[0], 9u);
  EXPECT_EQ(h.args[1], 4u); // the last site fired last

  ASSERT_EQ(xsdt_sdt_disable("srt:::multi", &err), 1) << err.message;
  const xsdt_patch_stats disabled = stats();
  EXPECT_EQ(disabled.mprotect_calls - enabled.mprotect_calls, 2u);
  EXPECT_EQ(disabled.icache_flushes - enabled.icache_flushes, 1u);
  EXPECT_EQ(disabled.sites_written - enabled.sites_written, sites.size());
  EXPECT_EQ(disabled.serializations - enabled.serializations,
            protocol ? 3u : 0u);
  for (const Site &s : sites)
    EXPECT_TRUE(HoldsNop(s.site));
}

// Enable and disable keep their per-site storage from one call to the
// next and take each probe's sites from its own list: a batch after a
// larger one writes exactly its probe's sites (no site left over from the
// last batch), and a larger one after it every site again.
TEST_P(ModeTest, BatchesOfEverySizeWriteTheirOwnSites) {
  const xsdt_mode mode = GetParam();
  std::vector<Site> multi = sites_of("srt", "multi");
  ASSERT_GE(multi.size(), 4u);
  std::vector<Site> every;
  xsdt_error err;
  ASSERT_GE(xsdt_sdt_list_sites(
                [](const xsdt_sdt_site_info *s, void *user) {
                  if (std::string(s->probe->provider) == "srt")
                    static_cast<std::vector<Site> *>(user)->push_back(
                        Site{s->site, s->target, s->state, s->function});
                },
                &every, &err),
            0);
  ASSERT_GT(every.size(), multi.size());
  std::atomic<long> hits{0};
  for (int round = 0; round < 2; ++round) {
    xsdt_patch_stats before = stats();
    ASSERT_GT(xsdt_sdt_enable("srt:::*", mode, count_only, &hits, &err), 1)
        << err.message;
    EXPECT_EQ(stats().sites_written - before.sites_written, every.size());
    ASSERT_GT(xsdt_sdt_disable("srt:::*", &err), 1) << err.message;
    for (const Site &s : every)
      EXPECT_TRUE(HoldsNop(s.site));

    before = stats();
    ASSERT_EQ(xsdt_sdt_enable("srt:::multi", mode, count_only, &hits, &err), 1)
        << err.message;
    EXPECT_EQ(stats().sites_written - before.sites_written, multi.size());
    for (const Site &s : every) {
      const bool is_multi =
          std::any_of(multi.begin(), multi.end(),
                      [&](const Site &m) { return m.site == s.site; });
      if (!is_multi)
        EXPECT_TRUE(HoldsNop(s.site)) << s.function;
      else if (mode == XSDT_MODE_JUMP)
        EXPECT_TRUE(HoldsJump(s));
      else
        EXPECT_TRUE(HoldsTrap(s.site));
    }
    for (const Site &s : sites_of("srt", "multi"))
      EXPECT_EQ(s.state, mode);
    ASSERT_EQ(xsdt_sdt_disable("srt:::multi", &err), 1) << err.message;
    for (const Site &s : every)
      EXPECT_TRUE(HoldsNop(s.site));
  }
}

TEST_P(ModeTest, NestedProbeInHandler) {
  struct Nest {
    std::atomic<long> outer{0}, inner{0};
  } nest;
  xsdt_error err;
  ASSERT_EQ(xsdt_sdt_enable(
                "srt:::outer", GetParam(),
                [](const xsdt_sdt_probe_info *, const std::uint64_t *args,
                   void *user) {
                  static_cast<Nest *>(user)->outer.fetch_add(1);
                  fire_inner(static_cast<int>(args[0]) + 1);
                  // The nested hit had an array of its own.
                  EXPECT_EQ(args[0], 5u);
                },
                &nest, &err),
            1)
      << err.message;
  ASSERT_EQ(xsdt_sdt_enable(
                "srt:::inner", GetParam(),
                [](const xsdt_sdt_probe_info *, const std::uint64_t *args,
                   void *user) {
                  EXPECT_EQ(args[0], 6u);
                  static_cast<Nest *>(user)->inner.fetch_add(1);
                },
                &nest, &err),
            1)
      << err.message;
  fire_outer(5);
  EXPECT_EQ(nest.outer.load(), 1);
  EXPECT_EQ(nest.inner.load(), 1);
  ASSERT_EQ(xsdt_sdt_disable("srt:::outer", &err), 1) << err.message;
  ASSERT_EQ(xsdt_sdt_disable("srt:::inner", &err), 1) << err.message;
}

// ---- Patterns, modes and errors
// ---------------------------------------------------

// A visitor is the caller's code: an exception it throws stops at the C
// API's edge as XSDT_ERR_INTERNAL with its reason, and the runtime's lock
// is free again afterwards (the next call works).
TEST(SdtRuntime, ExceptionFromAVisitorIsReported) {
  xsdt_error err{};
  EXPECT_EQ(
      xsdt_sdt_list([](const xsdt_sdt_probe_info *,
                       void *) { throw std::runtime_error("visitor failed"); },
                    nullptr, &err),
      -1);
  EXPECT_EQ(err.code, XSDT_ERR_INTERNAL);
  EXPECT_STREQ(err.message, "xsdt_sdt_list: visitor failed");
  EXPECT_EQ(xsdt_sdt_list_sites([](const xsdt_sdt_site_info *,
                                   void *) { throw std::bad_alloc(); },
                                nullptr, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_INTERNAL);
  EXPECT_STREQ(err.message, "xsdt_sdt_list_sites: out of memory");
  EXPECT_GT(
      xsdt_sdt_list([](const xsdt_sdt_probe_info *, void *) {}, nullptr, &err),
      0)
      << err.message;
}

TEST(SdtRuntime, Patterns) {
  std::atomic<long> hits{0};
  xsdt_error err;
  struct Case {
    const char *pattern;
    int probes;
  };
  // The test binary's probes: srt has 10, srtother 1; "simple" is in both.
  const Case cases[] = {
      {"srt:::simple", 1},       {"simple", 2},
      {"fire_simple:simple", 2}, {"unit:fire_simple:simple", 2},
      {"srt*:::simple", 2},      {"srtother:unit:fire_simple:simple", 1},
      {"srt:unit::s[it]*", 2},   {"srt:::dash-name", 1},
      {":::values", 1},          {"srt:::m?lti", 1},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(
        xsdt_sdt_enable(c.pattern, XSDT_MODE_AUTO, count_only, &hits, &err),
        c.probes)
        << c.pattern << ": " << err.message;
    EXPECT_EQ(xsdt_sdt_disable(c.pattern, &err), c.probes)
        << c.pattern << ": " << err.message;
  }
  EXPECT_EQ(xsdt_sdt_enable("srt:::dash__name", XSDT_MODE_JUMP, count_only,
                            &hits, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_NO_MATCH);
  EXPECT_EQ(xsdt_sdt_enable("nosuch", XSDT_MODE_JUMP, count_only, &hits, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_NO_MATCH);
  EXPECT_NE(std::strstr(err.message, "nosuch"), nullptr) << err.message;
  // "" is no description (every probe is spelled "*" or ":::").
  for (const char *bad : {"a:b:c:d:e", "srt:::[abc", "::::", ""}) {
    EXPECT_EQ(xsdt_sdt_enable(bad, XSDT_MODE_JUMP, count_only, &hits, &err), -1)
        << bad;
    EXPECT_EQ(err.code, XSDT_ERR_BAD_PATTERN) << bad;
    EXPECT_EQ(xsdt_sdt_disable(bad, &err), -1) << bad;
    EXPECT_EQ(err.code, XSDT_ERR_BAD_PATTERN) << bad;
  }
  EXPECT_EQ(xsdt_sdt_enable(nullptr, XSDT_MODE_JUMP, count_only, &hits, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_BAD_PATTERN);
  EXPECT_EQ(xsdt_sdt_disable("srt:::simple", &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_NOT_ENABLED);
  EXPECT_EQ(xsdt_sdt_enable("simple", static_cast<xsdt_mode>(7), count_only,
                            &hits, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_BAD_MODE);
  EXPECT_EQ(hits.load(), 0);
}

TEST(SdtRuntime, ModeConflictAndDoubleEnable) {
  Hits h;
  xsdt_error err;
  const Site s = only_site("srt", "simple");
  ASSERT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_TRAP, record, &h, &err),
            1)
      << err.message;
  EXPECT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_JUMP, record, &h, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_MODE_CONFLICT);
  EXPECT_NE(std::strstr(err.message, "srt:unit:fire_simple:simple"), nullptr)
      << err.message;
  EXPECT_NE(std::strstr(err.message, "trap mode"), nullptr) << err.message;
  // AUTO means jump for a valid site: the same conflict.
  EXPECT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_AUTO, record, &h, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_MODE_CONFLICT);
  EXPECT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_TRAP, record, &h, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_ALREADY_ENABLED);
  EXPECT_TRUE(HoldsTrap(s.site));

  // All or nothing: "simple" matches an enabled probe and a disabled one;
  // the disabled one stays untouched.
  const Site other = only_site("srtother", "simple");
  EXPECT_EQ(xsdt_sdt_enable("simple", XSDT_MODE_TRAP, record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_ALREADY_ENABLED);
  EXPECT_TRUE(HoldsNop(other.site));
  EXPECT_EQ(only_site("srtother", "simple").state, XSDT_MODE_AUTO);

  ASSERT_EQ(xsdt_sdt_disable("srt:::simple", &err), 1) << err.message;
  EXPECT_TRUE(HoldsNop(s.site));
  ASSERT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_JUMP, record, &h, &err),
            1)
      << err.message;
  EXPECT_TRUE(HoldsJump(s));
  EXPECT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_TRAP, record, &h, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_MODE_CONFLICT);
  EXPECT_NE(std::strstr(err.message, "jump mode"), nullptr) << err.message;
  EXPECT_EQ(xsdt_sdt_enable("srt:::simple", XSDT_MODE_AUTO, record, &h, &err),
            -1);
  EXPECT_EQ(err.code, XSDT_ERR_ALREADY_ENABLED);
  ASSERT_EQ(xsdt_sdt_disable("srt:::simple", &err), 1) << err.message;
  EXPECT_TRUE(HoldsNop(s.site));
}

// A byte of code, on a page the caller made writable (stores to code are
// outside TSan's view, as the runtime's own: see XSDT_STORES_TO_CODE).
XSDT_STORES_TO_CODE void write_code_byte(unsigned char *at,
                                         unsigned char value) {
  *at = value;
}

TEST(SdtRuntime, UnexpectedBytesLeaveEverythingAlone) {
  // A site that no longer holds the NOP (another tool wrote it): enabling
  // its probe fails naming both byte strings, and the other sites of the
  // batch are not written.
  std::vector<Site> sites = sites_of("srt", "multi");
  ASSERT_GE(sites.size(), 3u);
  auto *third = reinterpret_cast<unsigned char *>(sites[2].site);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  void *start = reinterpret_cast<void *>(sites[2].site & ~(page - 1));
  ASSERT_EQ(mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
  const unsigned char saved = third[isa::jump_site_size() - 1];
  write_code_byte(&third[isa::jump_site_size() - 1], 0x01);
  ASSERT_EQ(mprotect(start, 2 * page, PROT_READ | PROT_EXEC), 0);

  for (xsdt_mode mode : {XSDT_MODE_JUMP, XSDT_MODE_TRAP}) {
    Hits h;
    xsdt_error err;
    EXPECT_EQ(xsdt_sdt_enable("srt:::multi", mode, record, &h, &err), -1);
    EXPECT_EQ(err.code, XSDT_ERR_UNEXPECTED_BYTES);
    EXPECT_NE(std::strstr(err.message, "srt:unit:fire_multi:multi"), nullptr)
        << err.message;
    EXPECT_NE(std::strstr(err.message, "expected"), nullptr) << err.message;
    EXPECT_NE(std::strstr(err.message, "found"), nullptr) << err.message;
    for (std::size_t i = 0; i < sites.size(); ++i) {
      if (i == 2)
        continue;
      EXPECT_TRUE(HoldsNop(sites[i].site)) << "site " << i;
    }
    EXPECT_EQ(sites_of("srt", "multi")[0].state, XSDT_MODE_AUTO);
  }

  ASSERT_EQ(mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
  write_code_byte(&third[isa::jump_site_size() - 1], saved);
  ASSERT_EQ(mprotect(start, 2 * page, PROT_READ | PROT_EXEC), 0);
  EXPECT_TRUE(HoldsNop(sites[2].site));
}

// ---- Concurrency
// -----------------------------------------------------------------

// Threads fire while the main thread enables and disables: once disable
// returns, no handler runs and the site holds the NOP again. The main
// thread sleeps while the probe is enabled (a yield can cost a whole time
// slice per call on a busy machine); with many threads the workers pause
// between hits too, or the main thread would hardly run.
struct StressPlan {
  int cycles;
  int threads;
  bool alternate_modes; // odd cycles in trap mode
  std::chrono::microseconds worker_pause, enabled_window;
};

// The firing thread's index in stress(), for its handler.
thread_local int t_stress_worker = -1;

void stress(const StressPlan &plan) {
  struct Shared {
    std::atomic<long> hits{0};
    std::atomic<bool> stop{false};
    // One plain counter per firing thread: its handler adds to it, the main
    // thread reads and clears it after each disable. That is a data race
    // unless every handler happens before disable returns, and each enable
    // before the handlers it starts: what a ThreadSanitizer build checks.
    std::vector<long> handled;
  } shared;
  shared.handled.assign(static_cast<std::size_t>(plan.threads), 0);
  std::vector<std::thread> firing;
  for (int t = 0; t < plan.threads; ++t)
    firing.emplace_back([&shared, &plan, t] {
      t_stress_worker = t;
      int i = 0;
      while (!shared.stop.load(std::memory_order_relaxed)) {
        fire_stress(i++);
        if (plan.worker_pause.count())
          std::this_thread::sleep_for(plan.worker_pause);
      }
    });
  const Site s = only_site("srt", "stress");
  // A slow handler, so that disable often finds one running.
  auto slow = [](const xsdt_sdt_probe_info *, const std::uint64_t *,
                 void *user) {
    for (int spin = 0; spin < 200; ++spin)
      __asm__ volatile("" ::: "memory");
    auto *shared = static_cast<Shared *>(user);
    ++shared->handled[static_cast<std::size_t>(t_stress_worker)];
    shared->hits.fetch_add(1);
  };
  long late = 0, not_nop = 0, total = 0, handled = 0;
  for (int i = 0; i < plan.cycles; ++i) {
    const xsdt_mode mode =
        plan.alternate_modes && (i & 1) ? XSDT_MODE_TRAP : XSDT_MODE_JUMP;
    xsdt_error err;
    ASSERT_EQ(xsdt_sdt_enable("srt:::stress", mode, slow, &shared, &err), 1)
        << "cycle " << i << ": " << err.message;
    std::this_thread::sleep_for(plan.enabled_window);
    ASSERT_EQ(xsdt_sdt_disable("srt:::stress", &err), 1)
        << "cycle " << i << ": " << err.message;
    const long after = shared.hits.load();
    for (long &count : shared.handled) {
      handled += count;
      count = 0;
    }
    not_nop += !HoldsNop(s.site);
    for (int check = 0; check < 3; ++check) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      late += shared.hits.load() != after;
    }
    total = after;
  }
  shared.stop.store(true);
  for (std::thread &t : firing)
    t.join();
  EXPECT_EQ(late, 0) << "hits after disable returned";
  EXPECT_EQ(handled, total) << "handler calls missing from the counters";
  EXPECT_EQ(not_nop, 0) << "sites not restored to the NOP";
  EXPECT_GT(total, 0) << "no hit at all: the test proves nothing";
}

TEST(SdtRuntime, StressEnableDisableWhileFiring) {
  stress({2000, 4, true, std::chrono::microseconds(0),
          std::chrono::microseconds(50)});
}

// More threads than libxsdt has slots (256): the rest count themselves in
// the shared counters.
TEST(SdtRuntime, StressBeyondThreadSlots) {
  stress({100, 300, false, std::chrono::microseconds(100),
          std::chrono::microseconds(2000)});
}

// The same with the fence-mode fire path (what runs where membarrier is
// missing): the barrier mode is fixed at a process's first enable, so the
// stress test runs again in a fresh process.
TEST(SdtRuntime, StressInFenceMode) {
  if (std::getenv("XSDT_SDT_BARRIER"))
    GTEST_SKIP() << "already the child";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    setenv("XSDT_SDT_BARRIER", "fence", 1);
    execl("/proc/self/exe", "sdt_runtime_test",
          "--gtest_filter=SdtRuntime.StressEnableDisableWhileFiring",
          static_cast<char *>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// ---- W^X
// -------------------------------------------------------------------------

#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif

// Under a W^X policy (Linux >= 6.3 PR_SET_MDWE refuses writable+executable
// mappings) enable and disable fail with XSDT_ERR_PROTECT and change
// nothing. In a child: the policy cannot be lifted again.
TEST(SdtRuntime, WriteXorExecuteRefusal) {
  const Site s = only_site("srt", "simple");
  const std::vector<Site> multi = sites_of("srt", "multi");
  int pipefd[2];
  ASSERT_EQ(pipe(pipefd), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipefd[0]);
    // Checks in the child; the first failure is the exit code.
    auto check = [](bool ok, int code) {
      if (!ok)
        _exit(code);
    };
    Hits h;
    xsdt_error err;
    // Enabled before the policy: disable must then fail and keep it enabled.
    check(xsdt_sdt_enable("srt:::multi", XSDT_MODE_JUMP, record, &h, &err) == 1,
          10);
    if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0)
      _exit(77); // no such policy on this kernel
    for (xsdt_mode mode : {XSDT_MODE_JUMP, XSDT_MODE_TRAP}) {
      check(xsdt_sdt_enable("srt:::simple", mode, record, &h, &err) == -1, 11);
      check(err.code == XSDT_ERR_PROTECT, 12);
      check(std::strstr(err.message, "mprotect") != nullptr, 13);
      check(static_cast<bool>(HoldsNop(s.site)), 14);
      check(only_site("srt", "simple").state == XSDT_MODE_AUTO, 15);
    }
    check(xsdt_sdt_disable("srt:::multi", &err) == -1, 16);
    check(err.code == XSDT_ERR_PROTECT, 17);
    for (const Site &m : multi)
      check(static_cast<bool>(HoldsJump(m)), 18);
    fire_multi(1);
    check(h.count.load() == 4, 19);
    check(sites_of("srt", "multi")[0].state == XSDT_MODE_JUMP, 20);
    if (write(pipefd[1], err.message, std::strlen(err.message)) < 0)
      _exit(21);
    _exit(0);
  }
  close(pipefd[1]);
  char message[256] = {};
  ssize_t got = read(pipefd[0], message, sizeof message - 1);
  close(pipefd[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77)
    GTEST_SKIP() << "PR_SET_MDWE not supported by this kernel";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "failed check " << WEXITSTATUS(status);
  EXPECT_GT(got, 0);
  EXPECT_NE(std::strstr(message, "srt:unit:fire_multi:multi"), nullptr)
      << message;
}

} // namespace
