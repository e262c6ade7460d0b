// Host unit tests of libxsdt: probes in this binary, enabled and hit. The
// expected values come from the probe call sites, never from the decoder.
#include "xsdt/runtime.h"

#include "usdt_test_support.h"

// The decoder's floating-point path: floats with the `f` mark.
#define XSDT_FLOAT_SUFFIX 1
#include <xsdt/usdt.h>

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <signal.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

XSDT_SEMAPHORE(rtunit, guarded);

namespace {

using usdt_test::Hits;
using usdt_test::record;

// Only counts, so that several threads may run it at once (record writes
// the other fields of Hits without synchronisation).
void count_hit(const xsdt_probe_info *, int, const xsdt_arg *, void *user) {
  static_cast<Hits *>(user)->count.fetch_add(1);
}

__attribute__((noinline)) void fire_values(int a, unsigned char b, short c,
                                           long long d, double e,
                                           const char *p) {
  XSDT_PROBE(rtunit, values, a, b, c, d, e, p);
}

__attribute__((noinline)) void fire_simple(int i) {
  XSDT_PROBE(rtunit, simple, i);
}

__attribute__((noinline)) void fire_guarded(int i) {
  XSDT_PROBE_GUARDED(rtunit, guarded, i, i * 2);
}

using usdt_test::find_site;
using usdt_test::site_of;
using usdt_test::site_text;
using usdt_test::SiteFinder;

// An exception from the caller's visitor stops at the C API's edge as
// XSDT_ERR_INTERNAL with its reason, and leaves the runtime's lock free.
TEST(Runtime, ExceptionFromAVisitorIsReported) {
  xsdt_error err{};
  EXPECT_EQ(
      xsdt_list([](const xsdt_probe_info *,
                   void *) { throw std::runtime_error("visitor failed"); },
                nullptr, &err),
      -1);
  EXPECT_EQ(err.code, XSDT_ERR_INTERNAL);
  EXPECT_STREQ(err.message, "xsdt_list: visitor failed");
  EXPECT_GT(xsdt_list([](const xsdt_probe_info *, void *) {}, nullptr, &err), 0)
      << err.message;
}

TEST(Runtime, ListsOwnProbes) {
  SiteFinder f{"rtunit:values"};
  xsdt_error err;
  ASSERT_GT(xsdt_list(find_site, &f, &err), 0) << err.message;
  EXPECT_NE(f.pc, 0u);
  EXPECT_EQ(f.argc, 6);
}

// A visitor may enable and disable: xsdt_list does not hold the runtime's
// lock while it calls visitors (before, this deadlocked).
TEST(Runtime, VisitorMayEnableAndDisable) {
  struct Calls {
    int enabled = 0, disabled = 0;
  } calls;
  xsdt_error err;
  ASSERT_GT(xsdt_list(
                [](const xsdt_probe_info *probe, void *user) {
                  if (std::strcmp(probe->provider, "rtunit") != 0 ||
                      std::strcmp(probe->name, "simple") != 0)
                    return;
                  auto *c = static_cast<Calls *>(user);
                  xsdt_error inner;
                  c->enabled += xsdt_enable("rtunit:simple", record, nullptr,
                                            &inner) == 1;
                  c->disabled += xsdt_disable("rtunit:simple", &inner) == 1;
                },
                &calls, &err),
            0)
      << err.message;
  EXPECT_GE(calls.enabled, 1);
  EXPECT_EQ(calls.enabled, calls.disabled);
}

TEST(Runtime, EnableHitDecodeDisable) {
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable("rtunit:values", record, &h, &err), 1) << err.message;
  const char *text = "hello";
  fire_values(-7, 200, -300, -5000000000LL, 2.5, text);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.argc, 6);
  EXPECT_EQ(h.valid, 1);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[0]), -7);
  EXPECT_EQ(h.bits[1], 200u);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[2]), -300);
  EXPECT_EQ(static_cast<std::int64_t>(h.bits[3]), -5000000000LL);
  EXPECT_EQ(h.dbl[4], 2.5);
  EXPECT_EQ(h.bits[5], reinterpret_cast<std::uintptr_t>(text));
  ASSERT_EQ(xsdt_disable("rtunit:values", &err), 1) << err.message;
  fire_values(1, 2, 3, 4, 5, text);
  EXPECT_EQ(h.count.load(), 1);
}

TEST(Runtime, SiteBytes) {
  std::uintptr_t pc = site_of("rtunit:simple");
  ASSERT_NE(pc, 0u);
  auto *site = reinterpret_cast<const unsigned char *>(pc);
  EXPECT_EQ(site_text(site), XSDT_TEST_SITE_NOP);
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable("rtunit:simple", record, &h, &err), 1);
  EXPECT_EQ(site_text(site), XSDT_TEST_SITE_TRAP);
  EXPECT_EQ(xsdt_enable("rtunit:simple", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_ALREADY_ENABLED);
  ASSERT_EQ(xsdt_disable("rtunit:simple", &err), 1);
  EXPECT_EQ(site_text(site), XSDT_TEST_SITE_NOP);
  EXPECT_EQ(xsdt_disable("rtunit:simple", &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_NOT_ENABLED);
}

TEST(Runtime, Errors) {
  xsdt_error err;
  Hits h;
  EXPECT_EQ(xsdt_enable("rtunit:nosuch", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_NO_MATCH);
  EXPECT_EQ(xsdt_enable("a:b:c", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_BAD_PATTERN);
  EXPECT_EQ(xsdt_enable("", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_BAD_PATTERN);
  EXPECT_STREQ(xsdt_status_name(XSDT_ERR_PROTECT), "XSDT_ERR_PROTECT");
}

TEST(Runtime, Semaphore) {
  Hits h;
  xsdt_error err;
  EXPECT_FALSE(XSDT_PROBE_ENABLED(rtunit, guarded));
  fire_guarded(3);
  ASSERT_EQ(xsdt_enable("rtunit:guarded", record, &h, &err), 1) << err.message;
  EXPECT_TRUE(XSDT_PROBE_ENABLED(rtunit, guarded));
  fire_guarded(21);
  EXPECT_EQ(h.count.load(), 1);
  EXPECT_EQ(h.bits[0], 21u);
  EXPECT_EQ(h.bits[1], 42u);
  ASSERT_EQ(xsdt_disable("rtunit:*", &err), 1);
  EXPECT_FALSE(XSDT_PROBE_ENABLED(rtunit, guarded));
}

TEST(Runtime, Threads) {
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable("rtunit:simple", count_hit, &h, &err), 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 1000; ++i)
        fire_simple(i);
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(h.count.load(), 4000);
  ASSERT_EQ(xsdt_disable("rtunit:simple", &err), 1);
}

std::atomic<int> g_own_traps{0};
void own_trap(int, siginfo_t *, void *) { g_own_traps.fetch_add(1); }

TEST(Runtime, ForeignTrapReachesPreviousHandler) {
  // Runs after the runtime may already have installed its handler in an
  // earlier test, so only the chaining of a handler installed before the
  // first enable can be tested in a fresh process (see lit-tests/runtime).
  struct sigaction sa {};
  sa.sa_sigaction = own_trap;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  struct sigaction old {};
  ASSERT_EQ(sigaction(SIGTRAP, &sa, &old), 0);
  raise(SIGTRAP);
  EXPECT_EQ(g_own_traps.load(), 1);
  ASSERT_EQ(sigaction(SIGTRAP, &old, nullptr), 0);
}

} // namespace

// ---- The trap signal's contract (runtime.h) --------------------------------

namespace {
std::atomic<int> g_forwarded{0};
void count_forwarded(int, siginfo_t *, void *) { g_forwarded.fetch_add(1); }
} // namespace

// A program that replaces libxsdt's SIGTRAP handler after the first enable
// is told so, and nothing is written while it is; through
// xsdt_set_trap_forward() it gets the traps that are not a probe's.
TEST(Runtime, TrapHandlerReplacedIsDetected) {
  Hits h;
  xsdt_error err;
  ASSERT_EQ(xsdt_enable("rtunit:simple", record, &h, &err), 1) << err.message;
  ASSERT_EQ(xsdt_disable("rtunit:simple", &err), 1) << err.message;
  ASSERT_EQ(xsdt_check_trap_handler(&err), 0) << err.message;

  struct sigaction mine, libxsdt;
  std::memset(&mine, 0, sizeof mine);
  mine.sa_sigaction = count_forwarded;
  mine.sa_flags = SA_SIGINFO;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(sigaction(SIGTRAP, &mine, &libxsdt), 0);
  EXPECT_EQ(xsdt_check_trap_handler(&err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_SIGNAL);
  EXPECT_NE(std::strstr(err.message, "replaced"), nullptr) << err.message;
  const std::uintptr_t pc = site_of("rtunit:simple");
  unsigned char before[XSDT_TEST_SITE_SIZE];
  std::memcpy(before, reinterpret_cast<const void *>(pc), sizeof before);
  EXPECT_EQ(xsdt_enable("rtunit:simple", record, &h, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_SIGNAL);
  EXPECT_EQ(
      std::memcmp(before, reinterpret_cast<const void *>(pc), sizeof before), 0)
      << "a trap was written with the program's handler installed";

  // The program gives its handler back, then asks to be forwarded to.
  ASSERT_EQ(sigaction(SIGTRAP, &libxsdt, nullptr), 0);
  EXPECT_EQ(xsdt_check_trap_handler(&err), 0) << err.message;
  struct sigaction previous;
  ASSERT_EQ(xsdt_set_trap_forward(SIGTRAP, &mine, &previous, &err), 0)
      << err.message;
  EXPECT_EQ(xsdt_check_trap_handler(&err), 0) << err.message;
  const int forwarded = g_forwarded.load();
  raise(SIGTRAP); // not a probe's trap: forwarded to the program
  EXPECT_EQ(g_forwarded.load(), forwarded + 1);
  ASSERT_EQ(xsdt_enable("rtunit:simple", record, &h, &err), 1) << err.message;
  fire_simple(5);
  EXPECT_EQ(h.count.load(), 1); // a probe's trap is libxsdt's
  EXPECT_EQ(g_forwarded.load(), forwarded + 1);
  ASSERT_EQ(xsdt_disable("rtunit:simple", &err), 1) << err.message;
  EXPECT_EQ(xsdt_set_trap_forward(SIGTRAP, &previous, nullptr, &err), 0);
  EXPECT_EQ(xsdt_set_trap_forward(SIGUSR1, &mine, nullptr, &err), -1);
  EXPECT_EQ(err.code, XSDT_ERR_SIGNAL);
}
