// The consumer's work at the hit (<xsdt/consumer.h>: xsdt_handle_hit,
// hitarea, xsdt_area_walk, xsdt_probe_walk): the hit function sees every
// hit with its arguments, in the hitting thread's own area, decides what is
// recorded, and never runs nested within its own thread.
#include "xsdt/consumer.h"

#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

SDT_PROVIDER_DEFINE(cthit);
SDT_PROBE_DEFINE2(cthit, , , step, "int", "long");

extern "C" {

__attribute__((noinline)) void consumer_hit_step(int i, long v) {
  SDT_PROBE2(cthit, , , step, i, v);
}

__attribute__((noinline)) void consumer_hit_ping(int i, long v) {
  XSDT_PROBE(cthitusdt, ping, i, v);
}

} // extern "C"

namespace {

std::uint64_t this_tid() {
  return static_cast<std::uint64_t>(syscall(SYS_gettid));
}

struct Handle {
  xsdt_hdl *h = nullptr;
  Handle() { h = xsdt_open(XSDT_VERSION, nullptr); }
  ~Handle() { xsdt_close(h); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  const char *message() const { return xsdt_errmsg(h, xsdt_errno(h)); }
};

// What the test's hit function keeps in a thread's area. Atomics, relaxed:
// the area's thread writes it while the test may read it.
struct Area {
  std::atomic<std::uint64_t> hits[2];   // by probe index
  std::atomic<std::int64_t> arg_sum[2]; // of arg0
  std::atomic<std::uint64_t> tid;       // as the record gives it
  std::atomic<int> depth, deepest;      // nesting of the hit function
  std::atomic<std::uint64_t> bad_argc;  // records with argc != 2
};
static_assert(sizeof(Area) <= 128);

// Counts each hit and its arg0 in the area; records the even arg0 only.
int count_and_keep_even(const xsdt_record *record, void *area_bytes, void *) {
  auto *area = static_cast<Area *>(area_bytes);
  constexpr auto relaxed = std::memory_order_relaxed;
  const int depth = area->depth.load(relaxed) + 1;
  area->depth.store(depth, relaxed);
  if (depth > area->deepest.load(relaxed))
    area->deepest.store(depth, relaxed);
  const unsigned index = record->probe->index;
  area->hits[index].store(area->hits[index].load(relaxed) + 1, relaxed);
  const auto arg0 = static_cast<std::int64_t>(record->args[0]);
  area->arg_sum[index].store(area->arg_sum[index].load(relaxed) + arg0,
                             relaxed);
  area->tid.store(record->tid, relaxed);
  if (record->argc != 2)
    area->bad_argc.store(area->bad_argc.load(relaxed) + 1, relaxed);
  area->depth.store(depth - 1, relaxed);
  return arg0 % 2 == 0 ? XSDT_HIT_RECORD : XSDT_HIT_DISCARD;
}

struct Walked {
  std::map<std::uint64_t, const Area *> by_tid;
};

int walk_visit(uint64_t tid, const void *area, void *arg) {
  static_cast<Walked *>(arg)->by_tid[tid] = static_cast<const Area *>(area);
  return 0;
}

struct Kept {
  std::map<unsigned, std::vector<std::int64_t>> arg0_by_probe;
  std::map<unsigned, std::vector<std::int64_t>> arg1_by_probe;
};

int keep(const xsdt_record *r, void *arg) {
  auto *kept = static_cast<Kept *>(arg);
  kept->arg0_by_probe[r->probe->index].push_back(
      static_cast<std::int64_t>(r->args[0]));
  kept->arg1_by_probe[r->probe->index].push_back(
      static_cast<std::int64_t>(r->args[1]));
  return XSDT_CONSUME_NEXT;
}

int count_visit(const xsdt_probedesc *probe, uint64_t count, void *arg) {
  (*static_cast<std::map<unsigned, std::uint64_t> *>(arg))[probe->index] =
      count;
  return 0;
}

// Three threads fire the SDT probe and the USDT probe (in `mode`) 100 times
// each with arg0 0..99: every hit reaches the hit function in its own
// thread's area, and only the even ones are recorded.
void every_hit_in_its_threads_area(xsdt_mode usdt_mode) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1)
      << t.message();
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthitusdt:::ping", usdt_mode), 1)
      << t.message();
  ASSERT_EQ(xsdt_setopt(t.h, "hitarea", "128"), 0) << t.message();
  ASSERT_EQ(xsdt_handle_hit(t.h, count_and_keep_even, nullptr), 0);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  constexpr int kThreads = 3, kFires = 100;
  std::uint64_t tids[kThreads] = {};
  std::vector<std::thread> threads;
  for (int n = 0; n < kThreads; ++n)
    threads.emplace_back([n, &tids] {
      tids[n] = this_tid();
      for (int i = 0; i < kFires; ++i) {
        consumer_hit_step(i, 1000L * n + i);
        consumer_hit_ping(i, -i);
      }
    });
  for (std::thread &th : threads)
    th.join();
  ASSERT_EQ(xsdt_stop(t.h), 0) << t.message();

  Walked walked;
  ASSERT_EQ(xsdt_area_walk(t.h, walk_visit, &walked), 0) << t.message();
  ASSERT_EQ(walked.by_tid.size(), static_cast<std::size_t>(kThreads));
  for (std::uint64_t tid : tids) {
    ASSERT_EQ(walked.by_tid.count(tid), 1u) << tid;
    const Area &area = *walked.by_tid[tid];
    for (int probe = 0; probe < 2; ++probe) {
      EXPECT_EQ(area.hits[probe].load(), static_cast<std::uint64_t>(kFires));
      EXPECT_EQ(area.arg_sum[probe].load(), kFires * (kFires - 1) / 2); // 4950
    }
    EXPECT_EQ(area.tid.load(), tid);
    EXPECT_EQ(area.deepest.load(), 1);
    EXPECT_EQ(area.bad_argc.load(), 0u);
  }
  Kept kept;
  ASSERT_EQ(xsdt_work(t.h, keep, &kept), XSDT_WORKSTATUS_DONE);
  for (unsigned probe = 0; probe < 2; ++probe) {
    ASSERT_EQ(kept.arg0_by_probe[probe].size(),
              static_cast<std::size_t>(kThreads * kFires / 2));
    for (std::int64_t arg0 : kept.arg0_by_probe[probe])
      EXPECT_EQ(arg0 % 2, 0);
  }
  for (std::int64_t arg1 : kept.arg1_by_probe[1])
    EXPECT_LE(arg1, 0); // the USDT probe's -i, decoded
  // count() is of the records: the discarded hits are neither counted nor
  // dropped.
  std::map<unsigned, std::uint64_t> counts;
  ASSERT_EQ(xsdt_aggregate_walk(t.h, count_visit, &counts), 0);
  EXPECT_EQ(counts[0], static_cast<std::uint64_t>(kThreads * kFires / 2));
  EXPECT_EQ(counts[1], static_cast<std::uint64_t>(kThreads * kFires / 2));
  EXPECT_EQ(xsdt_drops(t.h), 0u);
}

TEST(ConsumerHit, EveryHitInItsThreadsAreaTrap) {
  every_hit_in_its_threads_area(XSDT_MODE_TRAP);
}

TEST(ConsumerHit, EveryHitInItsThreadsAreaAuto) {
  every_hit_in_its_threads_area(XSDT_MODE_AUTO);
}

// A hit inside the hit function (the function fires a trap-mode probe) is
// a nested hit of the same thread: dropped and counted, never a second
// call of the function on the same area.
int fire_usdt_inside(const xsdt_record *record, void *area, void *arg) {
  if (record->probe->index == 0)
    consumer_hit_ping(static_cast<int>(record->args[0]), 0);
  return count_and_keep_even(record, area, arg);
}

TEST(ConsumerHit, NestedHitIsDroppedNotRunInTheSameArea) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthitusdt:::ping", XSDT_MODE_TRAP), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "hitarea", "100"), 0); // rounded up to 112
  ASSERT_EQ(xsdt_handle_hit(t.h, fire_usdt_inside, nullptr), 0);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  for (int i = 0; i < 10; ++i)
    consumer_hit_step(2 * i, 0);
  for (int i = 0; i < 4; ++i)
    consumer_hit_ping(2 * i, 0); // not nested: counted and recorded
  ASSERT_EQ(xsdt_stop(t.h), 0);
  Walked walked;
  ASSERT_EQ(xsdt_area_walk(t.h, walk_visit, &walked), 0);
  ASSERT_EQ(walked.by_tid.size(), 1u);
  const Area &area = *walked.by_tid.begin()->second;
  EXPECT_EQ(area.hits[0].load(), 10u);
  EXPECT_EQ(area.hits[1].load(), 4u);
  EXPECT_EQ(area.deepest.load(), 1);
  EXPECT_EQ(xsdt_drops(t.h), 10u);
  std::map<unsigned, std::uint64_t> counts;
  ASSERT_EQ(xsdt_aggregate_walk(t.h, count_visit, &counts), 0);
  EXPECT_EQ(counts[0], 10u);
  EXPECT_EQ(counts[1], 14u); // 4 recorded + 10 dropped
}

int always_record(const xsdt_record *, void *area, void *arg) {
  *static_cast<void **>(arg) = area;
  return XSDT_HIT_RECORD;
}

TEST(ConsumerHit, NoAreaWithoutHitarea) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1);
  void *seen = &seen;
  ASSERT_EQ(xsdt_handle_hit(t.h, always_record, &seen), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "hitarea"), "0");
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  consumer_hit_step(1, 2);
  EXPECT_EQ(seen, nullptr);
  EXPECT_EQ(xsdt_area_walk(t.h, walk_visit, nullptr), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_STATE);
  EXPECT_NE(std::string(t.message()).find("hitarea 0"), std::string::npos)
      << t.message();
  Kept kept;
  ASSERT_EQ(xsdt_stop(t.h), 0);
  ASSERT_EQ(xsdt_work(t.h, keep, &kept), XSDT_WORKSTATUS_DONE);
  EXPECT_EQ(kept.arg1_by_probe[0], std::vector<std::int64_t>{2});
}

TEST(ConsumerHit, AreaIsZeroedAndAligned) {
  Handle t;
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_setopt(t.h, "hitarea", "1m"), 0);
  EXPECT_STREQ(xsdt_getopt(t.h, "hitarea"), "1048576");
  void *seen = nullptr;
  ASSERT_EQ(xsdt_handle_hit(t.h, always_record, &seen), 0);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  consumer_hit_step(1, 2);
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(seen) % 16, 0u);
  const auto *bytes = static_cast<const unsigned char *>(seen);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < (1u << 20); ++i)
    nonzero += bytes[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  ASSERT_EQ(xsdt_stop(t.h), 0);
}

int list_visit(const xsdt_probedesc *probe, void *arg) {
  static_cast<std::vector<std::string> *>(arg)->push_back(
      std::to_string(probe->index) + " " + probe->name);
  return 0;
}

TEST(ConsumerHit, ProbeWalkBeforeGo) {
  Handle t;
  std::vector<std::string> listed;
  ASSERT_EQ(xsdt_probe_walk(t.h, list_visit, &listed), 0);
  EXPECT_TRUE(listed.empty());
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthitusdt:::ping", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_probe_walk(t.h, list_visit, &listed), 0);
  EXPECT_EQ(listed, (std::vector<std::string>{"0 ping", "1 step"}));
  EXPECT_EQ(xsdt_probe_walk(t.h, nullptr, nullptr), -1);
}

TEST(ConsumerHit, Errors) {
  Handle t;
  EXPECT_EQ(xsdt_area_walk(t.h, walk_visit, nullptr), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_STATE);
  struct Bad {
    const char *value, *mentions;
  } bad[] = {{"12x", "hitarea '12x'"},
             {"", "hitarea ''"},
             {"257m", "out of range"},
             {nullptr, "hitarea '(null)'"}};
  for (const Bad &b : bad) {
    EXPECT_EQ(xsdt_setopt(t.h, "hitarea", b.value), -1) << b.mentions;
    EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_OPTION);
    EXPECT_NE(std::string(t.message()).find(b.mentions), std::string::npos)
        << t.message();
  }
  EXPECT_STREQ(xsdt_getopt(t.h, "hitarea"), "0");
  ASSERT_EQ(xsdt_enable_probes(t.h, "cthit:::step", XSDT_MODE_AUTO), 1);
  ASSERT_EQ(xsdt_go(t.h), 0) << t.message();
  EXPECT_EQ(xsdt_handle_hit(t.h, always_record, nullptr), -1);
  EXPECT_EQ(xsdt_errno(t.h), XSDT_ERR_BAD_STATE);
  EXPECT_EQ(xsdt_handle_hit(nullptr, always_record, nullptr), -1);
  EXPECT_EQ(xsdt_area_walk(nullptr, walk_visit, nullptr), -1);
  EXPECT_EQ(xsdt_probe_walk(nullptr, list_visit, nullptr), -1);
}

} // namespace
