// Unit tests of the consumer API (<xsdt/consumer.h>): SDT(9) and USDT probes
// of this binary go through the whole lifecycle. Every expected value comes
// from the probe call sites below (the arguments passed, the thread that
// fired, the number of fires), never from the decoder or the buffers.
#include "xsdt/consumer.h"

#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#include "machdep.h"
#include "record_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <pthread.h>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

SDT_PROVIDER_DEFINE(ctest);
// Explicit module and function parts, and the defaults (empty module: the
// program; empty function: the function holding the sites).
SDT_PROBE_DEFINE3(ctest, , worker, step, "int", "unsigned long",
                  "const char *");
SDT_PROBE_DEFINE2(ctest, , worker, mark, "long", "int");
SDT_PROBE_DEFINE1(ctest, , , tiny, "int");
SDT_PROBE_DEFINE0(ctest, , worker, start__up);

// The fire functions are extern "C" so that the ids derived from the
// function holding the sites are plain names.
extern "C" {

__attribute__((noinline)) void consumer_test_step(int i, unsigned long v,
                                                  const char *text) {
  SDT_PROBE3(ctest, , worker, step, i, v, text);
}

__attribute__((noinline)) void consumer_test_mark(long a, int b) {
  SDT_PROBE2(ctest, , worker, mark, a, b);
}

__attribute__((noinline)) void consumer_test_tiny(int i) {
  SDT_PROBE1(ctest, , , tiny, i);
}

__attribute__((noinline)) void consumer_test_start_up() {
  SDT_PROBE0(ctest, , worker, start__up);
}

__attribute__((noinline)) void consumer_test_ping(int a, long b) {
  XSDT_PROBE(ctusdt, ping, a, b);
}

// One function under three names, an SDT and a USDT probe in it: the
// global name is the function of both, whatever the symbol tables' order.
SDT_PROVIDER_DEFINE(aliasing);
SDT_PROBE_DEFINE1(aliasing, , , sdt, "int");
__attribute__((noinline)) void consumer_test_aliased(int a) {
  SDT_PROBE1(aliasing, , , sdt, a);
  XSDT_PROBE(aliasing, usdt, a);
}
void consumer_test_aliased_weak(int)
    __attribute__((weak, alias("consumer_test_aliased")));
__attribute__((used)) static void consumer_test_aliased_local(int)
    __attribute__((alias("consumer_test_aliased")));

} // extern "C"

namespace {

const char kText[] = "consumer";
const char *const kProgram = "xsdt_consumer_test";

std::uint64_t this_tid() {
  return static_cast<std::uint64_t>(syscall(SYS_gettid));
}

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

std::uint64_t as_arg(std::int64_t v) { return static_cast<std::uint64_t>(v); }
std::uint64_t as_arg(const void *p) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
}

// Closes the handle whatever the test did.
struct Handle {
  xsdt_hdl *h = nullptr;
  Handle() {
    int err = -1;
    h = xsdt_open(XSDT_VERSION, &err);
    EXPECT_NE(h, nullptr);
    EXPECT_EQ(err, XSDT_OK);
  }
  ~Handle() { xsdt_close(h); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  const char *message() const { return xsdt_errmsg(h, xsdt_errno(h)); }
};

struct Record {
  std::string id;
  unsigned index = 0;
  xsdt_probe_kind kind{};
  std::uint64_t tid = 0, timestamp = 0;
  int argc = 0;
  std::vector<std::uint64_t> args;
};

int collect(const xsdt_record *r, void *arg) {
  auto *out = static_cast<std::vector<Record> *>(arg);
  Record rec;
  rec.id = r->probe->id;
  rec.index = r->probe->index;
  rec.kind = r->probe->kind;
  rec.tid = r->tid;
  rec.timestamp = r->timestamp_ns;
  rec.argc = r->argc;
  rec.args.assign(r->args, r->args + r->argc);
  out->push_back(std::move(rec));
  return XSDT_CONSUME_NEXT;
}

// One xsdt_work call's records.
std::vector<Record> work_once(xsdt_hdl *h,
                              xsdt_workstatus expected = XSDT_WORKSTATUS_OKAY) {
  std::vector<Record> records;
  EXPECT_EQ(xsdt_work(h, collect, &records), expected);
  return records;
}

int count_visit(const xsdt_probedesc *probe, uint64_t count, void *arg) {
  (*static_cast<std::map<std::string, std::uint64_t> *>(arg))[probe->id] =
      count;
  return 0;
}

std::map<std::string, std::uint64_t> counts(xsdt_hdl *h) {
  std::map<std::string, std::uint64_t> out;
  EXPECT_EQ(xsdt_aggregate_walk(h, count_visit, &out), 0);
  return out;
}

std::string id_of(const char *provider, const char *function,
                  const char *name) {
  return std::string(provider) + ":" + kProgram + ":" + function + ":" + name;
}

const std::string kStep = id_of("ctest", "worker", "step");
const std::string kMark = id_of("ctest", "worker", "mark");
const std::string kTiny = id_of("ctest", "consumer_test_tiny", "tiny");
const std::string kStartUp = id_of("ctest", "worker", "start-up");
const std::string kPing = id_of("ctusdt", "consumer_test_ping", "ping");

struct Selected {
  std::map<std::string, const xsdt_probedesc *> by_id;
};

int select_visit(const xsdt_probedesc *probe, uint64_t, void *arg) {
  static_cast<Selected *>(arg)->by_id[probe->id] = probe;
  return 0;
}

Selected selected(xsdt_hdl *h) {
  Selected s;
  EXPECT_EQ(xsdt_aggregate_walk(h, select_visit, &s), 0);
  return s;
}

struct SiteStates {
  std::string id;
  std::vector<xsdt_mode> states;
};

void site_visit(const xsdt_sdt_site_info *site, void *arg) {
  auto *s = static_cast<SiteStates *>(arg);
  if (s->id == site->probe->id)
    s->states.push_back(site->state);
}

// The patch state of each site of an SDT probe (XSDT_MODE_AUTO: disabled).
std::vector<xsdt_mode> site_states(const std::string &id) {
  SiteStates s{id, {}};
  xsdt_error err{};
  EXPECT_GT(xsdt_sdt_list_sites(site_visit, &s, &err), 0) << err.message;
  return s.states;
}

// ---- Function names -----------------------------------------------------

TEST(Consumer, AliasedFunctionHasItsGlobalName) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "aliasing:::", XSDT_MODE_TRAP), 2)
      << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  Selected s = selected(t.h);
  ASSERT_EQ(s.by_id.size(), 2u);
  for (const auto &[id, d] : s.by_id) {
    EXPECT_STREQ(d->function, "consumer_test_aliased") << id;
    EXPECT_EQ(d->kind,
              d->name == std::string("sdt") ? XSDT_PROBE_SDT : XSDT_PROBE_USDT)
        << id;
  }
  EXPECT_EQ(xsdt_stop(t.h), 0) << t.message();
}

// ---- The lifecycle, per probe kind and mode -------------------------------

void check_step_lifecycle(xsdt_mode mode, xsdt_mode expected_mode) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", mode), 1) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();

  Selected s = selected(t.h);
  ASSERT_EQ(s.by_id.count(kStep), 1u);
  const xsdt_probedesc *d = s.by_id[kStep];
  EXPECT_EQ(d->index, 0u);
  EXPECT_STREQ(d->provider, "ctest");
  EXPECT_STREQ(d->module, kProgram);
  EXPECT_STREQ(d->function, "worker");
  EXPECT_STREQ(d->name, "step");
  EXPECT_EQ(d->kind, XSDT_PROBE_SDT);
  EXPECT_EQ(d->mode, expected_mode);
  ASSERT_EQ(d->argc, 3);
  EXPECT_STREQ(d->native_types[0], "int");
  EXPECT_STREQ(d->native_types[1], "unsigned long");
  EXPECT_STREQ(d->native_types[2], "const char *");
  EXPECT_STREQ(d->translated_types[0], "");

  // The mode reached the SDT runtime: every site of the probe is patched
  // that way while running, and restored by stop.
  // (GCC may clone the fire function for constant arguments: one site per
  // copy.)
  std::vector<xsdt_mode> states = site_states(kStep);
  ASSERT_FALSE(states.empty());
  EXPECT_EQ(states, std::vector<xsdt_mode>(states.size(), expected_mode));

  const std::uint64_t before = now_ns();
  for (int i = 0; i < 10; ++i)
    consumer_test_step(i - 3, 1000UL * static_cast<unsigned long>(i) + 7,
                       kText + i % 4);
  const std::uint64_t after = now_ns();
  // Counted while still buffered, and not consumed by counting.
  EXPECT_EQ(counts(t.h)[kStep], 10u);

  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 10u);
  std::uint64_t previous = before;
  for (int i = 0; i < 10; ++i) {
    const Record &r = records[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.id, kStep);
    EXPECT_EQ(r.tid, this_tid());
    EXPECT_GE(r.timestamp, previous);
    EXPECT_LE(r.timestamp, after);
    previous = r.timestamp;
    ASSERT_EQ(r.argc, 3);
    EXPECT_EQ(r.args[0], as_arg(i - 3)); // int, sign-extended
    EXPECT_EQ(r.args[1], 1000u * static_cast<unsigned>(i) + 7);
    EXPECT_EQ(r.args[2], as_arg(kText + i % 4));
  }
  EXPECT_EQ(counts(t.h)[kStep], 10u);
  EXPECT_EQ(xsdt_drops(t.h), 0u);

  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  EXPECT_EQ(site_states(kStep),
            std::vector<xsdt_mode>(states.size(), XSDT_MODE_AUTO));
  EXPECT_TRUE(work_once(t.h, XSDT_WORKSTATUS_DONE).empty());
  consumer_test_step(1, 2, kText); // disabled: neither counted nor recorded
  EXPECT_TRUE(work_once(t.h, XSDT_WORKSTATUS_DONE).empty());
  EXPECT_EQ(counts(t.h)[kStep], 10u);
}

TEST(Consumer, SdtJumpLifecycle) {
  check_step_lifecycle(XSDT_MODE_AUTO, XSDT_MODE_JUMP);
}

TEST(Consumer, SdtExplicitJumpLifecycle) {
  check_step_lifecycle(XSDT_MODE_JUMP, XSDT_MODE_JUMP);
}

TEST(Consumer, SdtTrapLifecycle) {
  check_step_lifecycle(XSDT_MODE_TRAP, XSDT_MODE_TRAP);
}

// A USDT probe selected in `mode` runs as `expected_mode`: AUTO is jump
// mode where libxsdt has it for USDT sites (xsdt_usdt_jumps()), else trap.
void check_usdt_lifecycle(xsdt_mode mode, xsdt_mode expected_mode) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", mode), 1) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  Selected s = selected(t.h);
  ASSERT_EQ(s.by_id.count(kPing), 1u);
  const xsdt_probedesc *d = s.by_id[kPing];
  EXPECT_EQ(d->kind, XSDT_PROBE_USDT);
  EXPECT_EQ(d->mode, expected_mode);
  EXPECT_STREQ(d->module, kProgram);
  EXPECT_STREQ(d->function, "consumer_test_ping");
  ASSERT_EQ(d->argc, 2);
  // The note's size and sign follow the C types: int, long.
  EXPECT_EQ(std::string(d->native_types[0]).rfind("-4@", 0), 0u)
      << d->native_types[0];
  EXPECT_EQ(std::string(d->native_types[1]).rfind("-8@", 0), 0u)
      << d->native_types[1];
  EXPECT_STREQ(d->translated_types[1], "");

  const std::uint64_t before = now_ns();
  for (int i = 0; i < 5; ++i)
    consumer_test_ping(-100 + i, 5000000000L * i);
  const std::uint64_t after = now_ns();
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const Record &r = records[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.id, kPing);
    EXPECT_EQ(r.kind, XSDT_PROBE_USDT);
    EXPECT_EQ(r.tid, this_tid());
    EXPECT_GE(r.timestamp, before);
    EXPECT_LE(r.timestamp, after);
    ASSERT_EQ(r.argc, 2);
    EXPECT_EQ(r.args[0], as_arg(-100 + i));
    EXPECT_EQ(r.args[1], as_arg(5000000000L * i));
  }
  EXPECT_EQ(counts(t.h)[kPing], 5u);
  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  consumer_test_ping(1, 2);
  EXPECT_TRUE(work_once(t.h, XSDT_WORKSTATUS_DONE).empty());
  EXPECT_EQ(counts(t.h)[kPing], 5u);
}

TEST(Consumer, UsdtAutoLifecycle) {
  check_usdt_lifecycle(XSDT_MODE_AUTO,
                       xsdt_usdt_jumps() ? XSDT_MODE_JUMP : XSDT_MODE_TRAP);
}

TEST(Consumer, UsdtTrapLifecycle) {
  check_usdt_lifecycle(XSDT_MODE_TRAP, XSDT_MODE_TRAP);
}

// Jump mode asked for explicitly: where libxsdt has no USDT jump mode, a
// BAD_MODE error naming the probe, and nothing selected.
TEST(Consumer, UsdtJumpLifecycle) {
  if (xsdt_usdt_jumps()) {
    check_usdt_lifecycle(XSDT_MODE_JUMP, XSDT_MODE_JUMP);
    return;
  }
  Handle t;
  EXPECT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_JUMP), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_MODE);
  EXPECT_NE(std::string(t.message()).find(kPing), std::string::npos)
      << t.message();
  EXPECT_EQ(xsdt_go(t.h), -1);
}

// A probe selected in trap mode conflicts with jump mode asked for later.
TEST(Consumer, UsdtModeConflict) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_TRAP), 1)
      << t.message();
  EXPECT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_JUMP), -1);
  EXPECT_EQ(xsdt_errno(t.h),
            xsdt_usdt_jumps() ? XSDT_ERR_MODE_CONFLICT : XSDT_ERR_BAD_MODE);
}

// SDT jump, SDT trap and USDT trap in one handle; records of one thread
// come out in firing order across probes.
TEST(Consumer, MixedProbesOneSession) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_JUMP), 1)
      << t.message();
  ASSERT_EQ(xsdt_enable_probes(t.h, "worker:mark", XSDT_MODE_TRAP), 1)
      << t.message();
  ASSERT_EQ(xsdt_enable_probes(t.h, "ping", XSDT_MODE_AUTO), 1) << t.message();
  ASSERT_EQ(xsdt_enable_probes(t.h, "start-up", XSDT_MODE_AUTO), 1)
      << t.message();
  ASSERT_EQ(
      xsdt_enable_probes(t.h, "ctest::consumer_test_tiny:", XSDT_MODE_AUTO), 1)
      << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  Selected s = selected(t.h);
  ASSERT_EQ(s.by_id.size(), 5u);
  EXPECT_EQ(s.by_id[kStep]->index, 0u);
  EXPECT_EQ(s.by_id[kMark]->index, 1u);
  EXPECT_EQ(s.by_id[kPing]->index, 2u);
  EXPECT_EQ(s.by_id[kStartUp]->index, 3u);
  EXPECT_EQ(s.by_id[kTiny]->index, 4u);
  EXPECT_EQ(s.by_id[kMark]->mode, XSDT_MODE_TRAP);

  consumer_test_start_up();
  for (int i = 0; i < 3; ++i) {
    consumer_test_step(i, 1, kText);
    consumer_test_mark(-5L * i, 7);
    consumer_test_ping(i, -1);
    consumer_test_mark(1, 2);
  }
  consumer_test_tiny(-42);
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 14u);
  EXPECT_EQ(records[0].id, kStartUp);
  EXPECT_EQ(records[0].argc, 0);
  for (int i = 0; i < 3; ++i) {
    const Record *r = &records[1 + 4 * static_cast<std::size_t>(i)];
    EXPECT_EQ(r[0].id, kStep);
    EXPECT_EQ(r[0].args,
              (std::vector<std::uint64_t>{as_arg(i), 1, as_arg(kText)}));
    EXPECT_EQ(r[1].id, kMark);
    EXPECT_EQ(r[1].args, (std::vector<std::uint64_t>{as_arg(-5L * i), 7}));
    EXPECT_EQ(r[2].id, kPing);
    EXPECT_EQ(r[2].args, (std::vector<std::uint64_t>{as_arg(i), as_arg(-1)}));
    EXPECT_EQ(r[3].id, kMark);
    EXPECT_EQ(r[3].args, (std::vector<std::uint64_t>{1, 2}));
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(r[k].tid, this_tid());
  }
  EXPECT_EQ(records[13].id, kTiny);
  EXPECT_EQ(records[13].args, (std::vector<std::uint64_t>{as_arg(-42)}));
  for (std::size_t i = 1; i < records.size(); ++i)
    EXPECT_GE(records[i].timestamp, records[i - 1].timestamp);

  std::map<std::string, std::uint64_t> c = counts(t.h);
  EXPECT_EQ(c[kStartUp], 1u);
  EXPECT_EQ(c[kStep], 3u);
  EXPECT_EQ(c[kMark], 6u);
  EXPECT_EQ(c[kPing], 3u);
  EXPECT_EQ(c[kTiny], 1u);

  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  // Largest count first; equal counts keep the index order.
  char *text = nullptr;
  std::size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(xsdt_aggregate_print(t.h, out), 0) << t.message();
  std::fclose(out);
  EXPECT_EQ(std::string(text), "  " + kMark + "  6\n" + "  " + kStep + "  3\n" +
                                   "  " + kPing + "  3\n" + "  " + kStartUp +
                                   "  1\n" + "  " + kTiny + "  1\n");
  std::free(text);
  EXPECT_TRUE(work_once(t.h, XSDT_WORKSTATUS_DONE).empty());
}

// ---- Threads and buffers ---------------------------------------------------

TEST(Consumer, EachThreadItsOwnBuffer) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  constexpr int kThreads = 4, kFires = 200;
  std::uint64_t tids[kThreads] = {};
  std::vector<std::thread> threads;
  for (int n = 0; n < kThreads; ++n)
    threads.emplace_back([n, &tids] {
      tids[n] = this_tid();
      for (int i = 0; i < kFires; ++i) {
        consumer_test_step(n, static_cast<unsigned long>(i), nullptr);
        if (i % 10 == 0)
          consumer_test_ping(n, i);
      }
    });
  for (auto &th : threads)
    th.join();
  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  std::vector<Record> records;
  ASSERT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_DONE);
  ASSERT_EQ(records.size(), static_cast<std::size_t>(kThreads * kFires +
                                                     kThreads * kFires / 10));
  // Per thread: its own tid on every record, in firing order.
  std::map<std::uint64_t, std::vector<const Record *>> by_tid;
  for (const Record &r : records)
    by_tid[r.tid].push_back(&r);
  ASSERT_EQ(by_tid.size(), static_cast<std::size_t>(kThreads));
  for (int n = 0; n < kThreads; ++n) {
    const std::vector<const Record *> &mine = by_tid[tids[n]];
    ASSERT_EQ(mine.size(), static_cast<std::size_t>(kFires + kFires / 10));
    std::size_t k = 0;
    for (int i = 0; i < kFires; ++i) {
      EXPECT_EQ(mine[k]->id, kStep);
      EXPECT_EQ(mine[k]->args,
                (std::vector<std::uint64_t>{as_arg(n),
                                            static_cast<std::uint64_t>(i), 0}));
      ++k;
      if (i % 10 == 0) {
        EXPECT_EQ(mine[k]->id, kPing);
        EXPECT_EQ(mine[k]->args,
                  (std::vector<std::uint64_t>{as_arg(n), as_arg(i)}));
        ++k;
      }
    }
    // Records of one thread are contiguous: one buffer, drained in order.
    const auto first =
        std::find_if(records.begin(), records.end(),
                     [&](const Record &r) { return r.tid == tids[n]; });
    for (std::size_t j = 0; j < mine.size(); ++j)
      EXPECT_EQ(&*(first + static_cast<std::ptrdiff_t>(j)), mine[j]);
  }
  std::map<std::string, std::uint64_t> c = counts(t.h);
  EXPECT_EQ(c[kStep], static_cast<std::uint64_t>(kThreads * kFires));
  EXPECT_EQ(c[kPing], static_cast<std::uint64_t>(kThreads * kFires / 10));
  EXPECT_EQ(xsdt_drops(t.h), 0u);
}

struct DropReport {
  std::uint64_t tid;
  std::uint64_t drops;
};

void on_drop(uint64_t tid, uint64_t drops, void *arg) {
  static_cast<std::vector<DropReport> *>(arg)->push_back({tid, drops});
}

TEST(Consumer, TinyBufferDropsAreCountedExactly) {
  Handle t;
  std::vector<DropReport> reports;
  ASSERT_EQ(xsdt_handle_drop(t.h, on_drop, &reports), 0);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  // A 3-argument record is 16 + 3 * 8 = 40 bytes: three fit in 128.
  ASSERT_EQ(xsdt_setopt(t.h, "bufsize", "128"), 0) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  for (int i = 0; i < 10; ++i)
    consumer_test_step(i, 0, nullptr);
  EXPECT_EQ(xsdt_drops(t.h), 7u);
  EXPECT_EQ(counts(t.h)[kStep], 10u); // 3 buffered + 7 dropped
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(records[static_cast<std::size_t>(i)].args[0], as_arg(i));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].tid, this_tid());
  EXPECT_EQ(reports[0].drops, 7u);
  EXPECT_EQ(counts(t.h)[kStep], 10u); // fired = recorded + dropped

  // Drained, the ring takes three more (the third after a wrap).
  for (int i = 10; i < 15; ++i)
    consumer_test_step(i, 0, nullptr);
  records = work_once(t.h);
  ASSERT_EQ(records.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(records[static_cast<std::size_t>(i)].args[0], as_arg(10 + i));
  EXPECT_EQ(xsdt_drops(t.h), 9u);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[1].drops, 2u);
  // No new drops: no report.
  work_once(t.h);
  EXPECT_EQ(reports.size(), 2u);
  EXPECT_EQ(counts(t.h)[kStep], 15u);
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

TEST(Consumer, RingWrapsWithoutLoss) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::mark", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "bufsize", "136"), 0) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  // 40- and 32-byte records in a 136-byte ring: every offset and padding
  // case comes round.
  std::vector<Record> records;
  for (int i = 0; i < 200; ++i) {
    consumer_test_step(i, static_cast<unsigned long>(i) * 3, kText);
    consumer_test_mark(-i, i);
    ASSERT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_OKAY);
  }
  ASSERT_EQ(records.size(), 400u);
  for (int i = 0; i < 200; ++i) {
    const Record *r = &records[2 * static_cast<std::size_t>(i)];
    EXPECT_EQ(r[0].id, kStep);
    EXPECT_EQ(r[0].args, (std::vector<std::uint64_t>{
                             as_arg(i), static_cast<std::uint64_t>(i) * 3,
                             as_arg(kText)}));
    EXPECT_EQ(r[1].id, kMark);
    EXPECT_EQ(r[1].args, (std::vector<std::uint64_t>{as_arg(-i), as_arg(i)}));
  }
  EXPECT_EQ(xsdt_drops(t.h), 0u);
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

TEST(Consumer, ThreadWithoutBufferIsDroppedAndCounted) {
  Handle t;
  std::vector<DropReport> reports;
  ASSERT_EQ(xsdt_handle_drop(t.h, on_drop, &reports), 0);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "nthreads", "1"), 0) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  consumer_test_step(1, 1, nullptr); // this thread takes the only buffer
  std::thread([] {
    for (int i = 0; i < 25; ++i)
      consumer_test_step(2, static_cast<unsigned long>(i), nullptr);
  }).join();
  consumer_test_step(1, 2, nullptr);
  EXPECT_EQ(xsdt_drops(t.h), 25u);
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].tid, this_tid());
  EXPECT_EQ(records[1].args[1], 2u);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].tid, 0u); // threads that found no buffer
  EXPECT_EQ(reports[0].drops, 25u);
  EXPECT_EQ(counts(t.h)[kStep], 27u);
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

// Threads keep firing through stop: nothing is counted or recorded after
// stop returns, and what was counted is exactly recorded + dropped.
TEST(Consumer, NothingAfterStop) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_JUMP), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::mark", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "bufsize", "4k"), 0);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  std::atomic<bool> running{true};
  std::vector<std::thread> threads;
  for (int n = 0; n < 3; ++n)
    threads.emplace_back([n, &running] {
      for (int i = 0; running.load(std::memory_order_relaxed); ++i) {
        consumer_test_step(n, static_cast<unsigned long>(i), nullptr);
        consumer_test_mark(n, i);
        consumer_test_ping(n, i);
      }
    });
  std::vector<Record> records;
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (std::chrono::steady_clock::now() < until)
    ASSERT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_OKAY);
  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  const std::uint64_t stopped_at = now_ns();
  ASSERT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_DONE);
  const std::map<std::string, std::uint64_t> at_stop = counts(t.h);
  const std::uint64_t drops = xsdt_drops(t.h);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  running = false;
  for (auto &th : threads)
    th.join();

  EXPECT_EQ(counts(t.h), at_stop);
  EXPECT_EQ(xsdt_drops(t.h), drops);
  EXPECT_TRUE(work_once(t.h, XSDT_WORKSTATUS_DONE).empty());
  std::uint64_t counted = 0;
  for (const auto &[id, n] : at_stop)
    counted += n;
  EXPECT_GT(counted, 0u);
  EXPECT_EQ(counted, records.size() + drops);
  for (const Record &r : records)
    EXPECT_LT(r.timestamp, stopped_at);
  // Per thread and probe, the sequence numbers only grow.
  std::map<std::pair<std::uint64_t, std::string>, std::int64_t> last;
  for (const Record &r : records) {
    const std::int64_t seq = static_cast<std::int64_t>(r.args[1]);
    auto key = std::make_pair(r.tid, r.id);
    auto it = last.find(key);
    if (it != last.end()) {
      EXPECT_GT(seq, it->second) << r.id;
    }
    last[key] = seq;
  }
}

// A USDT trap hit (SIGTRAP) taken inside a SIGUSR1 handler that interrupts
// an SDT hit of the same thread: nested hits never corrupt the buffer, and
// each is recorded or counted as dropped.
std::atomic<int> g_signal_pings{0};
void fire_ping_from_signal(int) {
  consumer_test_ping(-1, g_signal_pings.fetch_add(1) + 1);
}

// A program that replaces libxsdt's SIGTRAP handler while a session has
// trap-mode probes: xsdt_work says the hits are lost instead of going quiet.
// (The site is not fired while the program's handler is in place: the
// trap would be the program's.)
void ignore_trap(int) {}

TEST(Consumer, ReplacedTrapHandlerIsReportedByWork) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  ASSERT_EQ(xsdt_work(t.h, nullptr, nullptr), XSDT_WORKSTATUS_OKAY)
      << t.message();
  struct sigaction mine {
  }, libxsdt{};
  mine.sa_handler = ignore_trap;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(sigaction(SIGTRAP, &mine, &libxsdt), 0);
  EXPECT_EQ(xsdt_work(t.h, nullptr, nullptr), XSDT_WORKSTATUS_ERROR);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_SIGNAL);
  EXPECT_NE(std::string(t.message()).find("hits are lost"), std::string::npos)
      << t.message();
  ASSERT_EQ(sigaction(SIGTRAP, &libxsdt, nullptr), 0);
  EXPECT_EQ(xsdt_work(t.h, nullptr, nullptr), XSDT_WORKSTATUS_OKAY)
      << t.message();
  EXPECT_EQ(xsdt_stop(t.h), 0) << t.message();
}

TEST(Consumer, NestedSignalHitsAreRecordedOrCounted) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_JUMP), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctusdt:::ping", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "bufsize", "1m"), 0);
  struct sigaction sa {
  }, old{};
  sa.sa_handler = fire_ping_from_signal;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &sa, &old), 0);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  g_signal_pings = 0;
  std::atomic<bool> running{true};
  std::atomic<long> steps{0};
  std::thread firing([&] {
    for (long i = 0; running.load(std::memory_order_relaxed); ++i) {
      consumer_test_step(0, static_cast<unsigned long>(i), nullptr);
      steps.store(i + 1, std::memory_order_relaxed);
    }
  });
  std::vector<Record> records;
  while (steps.load() == 0)
    std::this_thread::yield();
  for (int i = 0; i < 2000; ++i) {
    pthread_kill(firing.native_handle(), SIGUSR1);
    if (i % 50 == 0)
      xsdt_work(t.h, collect, &records);
  }
  // Every signal delivered before the thread ends.
  while (g_signal_pings.load() == 0)
    std::this_thread::yield();
  running = false;
  firing.join();
  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();
  ASSERT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_DONE);
  ASSERT_EQ(sigaction(SIGUSR1, &old, nullptr), 0);

  std::map<std::string, std::uint64_t> c = counts(t.h);
  EXPECT_EQ(c[kStep], static_cast<std::uint64_t>(steps.load()));
  EXPECT_EQ(c[kPing], static_cast<std::uint64_t>(g_signal_pings.load()));
  EXPECT_EQ(c[kStep] + c[kPing], records.size() + xsdt_drops(t.h));
  long next_step = 0;
  std::int64_t last_ping = 0;
  for (const Record &r : records) {
    if (r.id == kStep) {
      EXPECT_GE(static_cast<long>(r.args[1]), next_step);
      next_step = static_cast<long>(r.args[1]) + 1;
    } else {
      ASSERT_EQ(r.id, kPing);
      EXPECT_EQ(r.args[0], as_arg(-1));
      EXPECT_GT(static_cast<std::int64_t>(r.args[1]), last_ping);
      last_ping = static_cast<std::int64_t>(r.args[1]);
    }
  }
}

// ---- Several handles and sessions -------------------------------------------

TEST(Consumer, TwoHandlesAtOnce) {
  Handle a, b;
  ASSERT_EQ(xsdt_enable_probes(a.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(b.h, "ctest:::mark", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(a.h), 0) << a.message();
  ASSERT_EQ(xsdt_go(b.h), 0) << b.message();
  consumer_test_step(1, 2, nullptr);
  consumer_test_mark(3, 4);
  consumer_test_step(5, 6, nullptr);
  std::vector<Record> ra = work_once(a.h), rb = work_once(b.h);
  ASSERT_EQ(ra.size(), 2u);
  ASSERT_EQ(rb.size(), 1u);
  EXPECT_EQ(ra[1].args[0], 5u);
  EXPECT_EQ(rb[0].id, kMark);
  EXPECT_EQ(rb[0].args, (std::vector<std::uint64_t>{3, 4}));
  // A probe belongs to one handle at a time.
  Handle c;
  ASSERT_EQ(xsdt_enable_probes(c.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  EXPECT_EQ(xsdt_go(c.h), -1);
  EXPECT_NE(xsdt_errno(c.h), XSDT_OK);
  EXPECT_NE(std::string(c.message()).find(kStep), std::string::npos)
      << c.message();
  ASSERT_EQ(xsdt_stop(a.h), 0);
  ASSERT_EQ(xsdt_stop(b.h), 0);
  // Free again: c's failed go left it configurable.
  ASSERT_EQ(xsdt_go(c.h), 0) << c.message();
  consumer_test_step(7, 8, nullptr);
  ASSERT_EQ(work_once(c.h).size(), 1u);
  EXPECT_EQ(xsdt_stop(c.h), 0);
}

TEST(Consumer, GoFailureIsAllOrNothing) {
  Handle owner;
  ASSERT_EQ(xsdt_enable_probes(owner.h, "ctusdt:::ping", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(owner.h), 0) << owner.message();
  Handle t;
  // step and mark are enabled first, then ping fails: both are undone.
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::mark", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "ping", XSDT_MODE_AUTO), 1);
  EXPECT_EQ(xsdt_go(t.h), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_ALREADY_ENABLED) << t.message();
  EXPECT_NE(std::string(t.message()).find("ctusdt:ping"), std::string::npos)
      << t.message();
  // Not left enabled: another handle can take them.
  Handle other;
  ASSERT_EQ(xsdt_enable_probes(other.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(other.h, "ctest:::mark", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(other.h), 0) << other.message();
  consumer_test_mark(1, 1);
  EXPECT_EQ(work_once(other.h).size(), 1u);
  EXPECT_EQ(xsdt_stop(other.h), 0);
  EXPECT_EQ(xsdt_stop(owner.h), 0);
}

TEST(Consumer, SuccessiveSessionsInOneThread) {
  for (int round = 0; round < 6; ++round) {
    Handle t;
    ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
    ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
    consumer_test_step(round, 0, nullptr);
    std::vector<Record> records = work_once(t.h);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].args[0], as_arg(round));
    EXPECT_EQ(records[0].tid, this_tid());
    ASSERT_EQ(xsdt_stop(t.h), 0);
  }
}

TEST(Consumer, CloseWithoutStop) {
  {
    Handle t;
    ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
    ASSERT_EQ(xsdt_enable_probes(t.h, "ping", XSDT_MODE_AUTO), 1);
    ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
    consumer_test_step(1, 2, nullptr);
  }                                  // closed while running
  consumer_test_step(1, 2, nullptr); // disabled: must not touch the handle
  consumer_test_ping(1, 2);
  Handle again;
  ASSERT_EQ(xsdt_enable_probes(again.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(again.h, "ping", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(again.h), 0) << again.message();
  EXPECT_EQ(xsdt_stop(again.h), 0);
}

TEST(Consumer, WorkAbortLeavesTheRest) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  for (int i = 0; i < 5; ++i)
    consumer_test_step(i, 0, nullptr);
  ASSERT_EQ(xsdt_stop(t.h), 0);
  int seen = 0;
  auto take_two = [](const xsdt_record *, void *arg) -> int {
    return ++*static_cast<int *>(arg) == 2 ? XSDT_CONSUME_ABORT
                                           : XSDT_CONSUME_NEXT;
  };
  EXPECT_EQ(xsdt_work(t.h, take_two, &seen), XSDT_WORKSTATUS_OKAY);
  EXPECT_EQ(seen, 2);
  std::vector<Record> rest = work_once(t.h, XSDT_WORKSTATUS_DONE);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].args[0], 2u);
  EXPECT_EQ(rest[2].args[0], 4u);
}

// ---- Descriptions and selection ---------------------------------------------

TEST(Consumer, DescriptionForms) {
  Handle t;
  EXPECT_EQ(xsdt_enable_probes(t.h, "step", XSDT_MODE_AUTO), 1) << t.message();
  EXPECT_EQ(xsdt_enable_probes(t.h, "worker:step", XSDT_MODE_AUTO), 1);
  EXPECT_EQ(
      xsdt_enable_probes(t.h, "xsdt_consumer_test:worker:step", XSDT_MODE_AUTO),
      1);
  EXPECT_EQ(xsdt_enable_probes(t.h, "c?est:*:worker:st[e]p", XSDT_MODE_AUTO),
            1);
  // Every probe of the two providers in this program.
  EXPECT_EQ(xsdt_enable_probes(t.h, "ct*:xsdt_consumer_test::", XSDT_MODE_AUTO),
            5)
      << t.message();
  // Selecting again keeps the index; the explicit other mode conflicts.
  EXPECT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_TRAP), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_MODE_CONFLICT);
  EXPECT_NE(std::string(t.message()).find(kStep), std::string::npos);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  Selected s = selected(t.h);
  EXPECT_EQ(s.by_id.size(), 5u);
  EXPECT_EQ(s.by_id[kStep]->index, 0u);
  EXPECT_EQ(xsdt_stop(t.h), 0);
}

// ---- Errors -----------------------------------------------------------------

TEST(Consumer, OpenWrongVersion) {
  int err = 0;
  EXPECT_EQ(xsdt_open(XSDT_VERSION + 1, &err), nullptr);
  EXPECT_EQ(err, XSDT_ERR_VERSION);
  EXPECT_STREQ(xsdt_errmsg(nullptr, err), "consumer API version mismatch");
  EXPECT_EQ(xsdt_open(0, nullptr), nullptr);
}

TEST(Consumer, LifecycleOrder) {
  Handle t;
  auto expect_bad_state = [&](int rc, const char *call) {
    EXPECT_EQ(rc, -1) << call;
    EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_STATE) << call;
    EXPECT_NE(std::string(t.message()).find(call), std::string::npos)
        << t.message();
  };
  std::vector<Record> records;
  EXPECT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_ERROR);
  expect_bad_state(-1, "xsdt_work");
  expect_bad_state(xsdt_stop(t.h), "xsdt_stop");
  expect_bad_state(xsdt_aggregate_walk(t.h, count_visit, nullptr),
                   "xsdt_aggregate_walk");
  expect_bad_state(xsdt_aggregate_print(t.h, stdout), "xsdt_aggregate_print");
  expect_bad_state(xsdt_go(t.h), "xsdt_go"); // nothing selected
  EXPECT_EQ(xsdt_drops(t.h), 0u);

  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  expect_bad_state(xsdt_go(t.h), "xsdt_go");
  expect_bad_state(xsdt_enable_probes(t.h, "ctest:::mark", XSDT_MODE_AUTO),
                   "xsdt_enable_probes");
  expect_bad_state(xsdt_setopt(t.h, "bufsize", "8k"), "xsdt_setopt");
  ASSERT_EQ(xsdt_stop(t.h), 0);
  expect_bad_state(xsdt_stop(t.h), "xsdt_stop");
  expect_bad_state(xsdt_go(t.h), "xsdt_go");
  EXPECT_EQ(xsdt_work(t.h, collect, &records), XSDT_WORKSTATUS_DONE);
  // Another code than the last error: the generic text.
  EXPECT_STREQ(xsdt_errmsg(t.h, XSDT_ERR_NO_MATCH),
               "the description matches no probe");
}

TEST(Consumer, Options) {
  Handle t;
  EXPECT_STREQ(xsdt_getopt(t.h, "bufsize"), "65536");
  EXPECT_STREQ(xsdt_getopt(t.h, "nthreads"), "64");
  EXPECT_EQ(xsdt_getopt(t.h, "aggsize"), nullptr);
  EXPECT_EQ(xsdt_setopt(t.h, "bufsize", "256k"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "bufsize"), "262144");
  EXPECT_EQ(xsdt_setopt(t.h, "bufsize", "2M"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "bufsize"), "2097152");
  EXPECT_EQ(xsdt_setopt(t.h, "bufsize", "64"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "bufsize"), "64");
  EXPECT_EQ(xsdt_setopt(t.h, "nthreads", "3"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "nthreads"), "3");
  EXPECT_STREQ(xsdt_getopt(t.h, "timestamps"), "on");
  EXPECT_EQ(xsdt_setopt(t.h, "timestamps", "off"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "timestamps"), "off");
  EXPECT_STREQ(xsdt_getopt(t.h, "clock"), "auto");
  EXPECT_EQ(xsdt_setopt(t.h, "clock", "monotonic"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "clock"), "monotonic");

  struct Bad {
    const char *option, *value, *mentions;
  } bad[] = {
      {"aggsize", "4k", "unknown option 'aggsize'"},
      {"bufsize", "12x", "bufsize '12x'"},
      {"bufsize", "", "bufsize ''"},
      {"bufsize", "k", "bufsize 'k'"},
      {"bufsize", "-4k", "bufsize '-4k'"},
      {"bufsize", "63", "out of range"},
      {"bufsize", "257m", "out of range"},
      {"bufsize", "99999999999999999999k", "bufsize"},
      {"nthreads", "0", "out of range"},
      {"nthreads", "4097", "out of range"},
      {"nthreads", "2k", "nthreads '2k'"},
      {"nthreads", nullptr, "nthreads '(null)'"},
      {nullptr, "1", "unknown option '(null)'"},
      {"timestamps", "yes", "timestamps 'yes' is neither on nor off"},
      {"timestamps", "", "timestamps ''"},
      {"timestamps", nullptr, "timestamps '(null)'"},
      {"clock", "tsc", "clock 'tsc' is neither auto nor monotonic"},
      {"clock", nullptr, "clock '(null)'"},
  };
  for (const Bad &b : bad) {
    EXPECT_EQ(xsdt_setopt(t.h, b.option, b.value), -1) << b.mentions;
    EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_OPTION) << b.mentions;
    EXPECT_NE(std::string(t.message()).find(b.mentions), std::string::npos)
        << t.message();
  }
  // Unchanged by the failures.
  EXPECT_STREQ(xsdt_getopt(t.h, "bufsize"), "64");
  EXPECT_STREQ(xsdt_getopt(t.h, "nthreads"), "3");
  EXPECT_STREQ(xsdt_getopt(t.h, "timestamps"), "off");
}

// The record clock in use, from go on: the arch's counter where this
// system has one (record_clock.h), CLOCK_MONOTONIC when asked; with either,
// every record lies between the clock reads around its hit, in order.
void check_clock(const char *option, const char *expected) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "clock", option), 0) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  EXPECT_STREQ(xsdt_getopt(t.h, "clock"), expected);
  std::vector<std::uint64_t> before, after;
  for (int i = 0; i < 200; ++i) {
    before.push_back(now_ns());
    consumer_test_step(i, 1, kText);
    after.push_back(now_ns());
  }
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 200u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_GE(records[i].timestamp, before[i]) << "record " << i;
    EXPECT_LE(records[i].timestamp, after[i]) << "record " << i;
  }
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

// (The arch's counter as the record clock takes it: it may find it too
// coarse; record_clock_test checks that choice.)
TEST(Consumer, ClockAutoIsTheArchCounter) {
  xsdt::rt::RecordClock arch_clock;
  arch_clock.start(xsdt::rt::machdep::cycle_counter());
  check_clock("auto", arch_clock.name());
}

TEST(Consumer, ClockMonotonic) { check_clock("monotonic", "monotonic"); }

// With timestamps off a record carries 0 and everything else as before.
TEST(Consumer, TimestampsOff) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "ctest:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "timestamps", "off"), 0) << t.message();
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  for (int i = 0; i < 5; ++i)
    consumer_test_step(i, 10UL * static_cast<unsigned long>(i), kText);
  std::vector<Record> records = work_once(t.h);
  ASSERT_EQ(records.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const Record &r = records[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.timestamp, 0u);
    EXPECT_EQ(r.tid, this_tid());
    EXPECT_EQ(r.args, (std::vector<std::uint64_t>{
                          as_arg(i), 10u * static_cast<std::uint64_t>(i),
                          as_arg(kText)}));
  }
  EXPECT_EQ(counts(t.h)[kStep], 5u);
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

TEST(Consumer, SelectionErrors) {
  Handle t;
  EXPECT_EQ(xsdt_enable_probes(t.h, "ctest:::nosuch", XSDT_MODE_AUTO), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_NO_MATCH);
  EXPECT_NE(std::string(t.message()).find("'ctest:::nosuch'"),
            std::string::npos)
      << t.message();

  EXPECT_EQ(xsdt_enable_probes(t.h, "a:b:c:d:e", XSDT_MODE_AUTO), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_PATTERN);
  EXPECT_EQ(xsdt_enable_probes(t.h, "", XSDT_MODE_AUTO), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_PATTERN);
  // fnmatch would read the '[' literally and match nothing: a typo.
  EXPECT_EQ(xsdt_enable_probes(t.h, "ctest:::[abc", XSDT_MODE_AUTO), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_PATTERN);
  EXPECT_NE(std::string(t.message()).find("unclosed '['"), std::string::npos)
      << t.message();
  EXPECT_EQ(xsdt_enable_probes(t.h, nullptr, XSDT_MODE_AUTO), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_PATTERN);
  // (A mode outside the enum is tested from C: in C++ it is no value of
  // the type.)
  // The failed calls selected nothing: go has nothing to enable.
  EXPECT_EQ(xsdt_go(t.h), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_STATE);
}

} // namespace
