// The record clock (record_clock.h): a counter's values converted to
// CLOCK_MONOTONIC nanoseconds when drained. What a consumer relies on: a
// value read between two CLOCK_MONOTONIC reads converts to a time between
// them, converted values never decrease, and a counter that cannot be
// trusted is not used.
#include "machdep.h"
#include "record_clock.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using xsdt::rt::monotonic_ns;
using xsdt::rt::RecordClock;
using xsdt::rt::machdep::CycleCounter;

struct Sample {
  std::uint64_t before, value, after;
};

// Reads the clock between two CLOCK_MONOTONIC reads, n times, with `spin`
// iterations of busy work between samples; converted only afterwards, as
// the drain does.
std::vector<Sample> sample(const RecordClock &clock, int n, int spin) {
  std::vector<Sample> samples;
  samples.reserve(static_cast<std::size_t>(n));
  volatile int sink = 0;
  for (int i = 0; i < n; ++i) {
    Sample s;
    s.before = monotonic_ns();
    s.value = clock.now();
    s.after = monotonic_ns();
    samples.push_back(s);
    for (int j = 0; j < spin; ++j)
      sink = sink + j;
  }
  return samples;
}

void expect_bounded_and_ordered(RecordClock &clock,
                                const std::vector<Sample> &samples) {
  std::uint64_t previous = 0;
  int outside = 0, backwards = 0;
  for (const Sample &s : samples) {
    const std::uint64_t t = clock.to_ns(s.value);
    if (t < s.before || t > s.after) {
      if (outside++ < 5)
        ADD_FAILURE() << "converted " << t << " outside [" << s.before << ", "
                      << s.after << "]";
    }
    if (t < previous)
      ++backwards;
    previous = t;
  }
  EXPECT_EQ(outside, 0) << "of " << samples.size();
  EXPECT_EQ(backwards, 0);
}

// A counter at three ticks a nanosecond, from an offset: what the
// conversion must measure, not assume.
std::uint64_t three_per_ns() { return 3 * monotonic_ns() + 123456789; }
const CycleCounter kFake{"fake", three_per_ns};

TEST(RecordClock, MonotonicMeansNoConversion) {
  RecordClock clock;
  clock.start(nullptr);
  EXPECT_STREQ(clock.name(), "monotonic");
  const std::uint64_t before = monotonic_ns();
  const std::uint64_t value = clock.now();
  EXPECT_GE(value, before);
  EXPECT_LE(value, monotonic_ns());
  EXPECT_EQ(clock.to_ns(value), value);
}

TEST(RecordClock, ACounterConvertsBetweenItsClockReads) {
  RecordClock clock;
  clock.start(&kFake);
  EXPECT_STREQ(clock.name(), "fake");
  // Tight loops and spread ones: values close to a pair and far from it.
  expect_bounded_and_ordered(clock, sample(clock, 20000, 0));
  expect_bounded_and_ordered(clock, sample(clock, 2000, 20000));
}

// Values from before the pairs that later values needed: converted after
// them, still in range and in order (a thread's record drained late).
TEST(RecordClock, LateValuesStillConvertInRange) {
  RecordClock clock;
  clock.start(&kFake);
  const std::vector<Sample> early = sample(clock, 1000, 1000);
  const std::vector<Sample> late = sample(clock, 1000, 1000);
  expect_bounded_and_ordered(clock, late);
  expect_bounded_and_ordered(clock, early);
}

// A counter that runs backwards on every read is not used.
std::uint64_t backwards() {
  static std::uint64_t value = UINT64_MAX / 2;
  return value -= 1000;
}
TEST(RecordClock, ACounterThatGoesBackIsRefused) {
  const CycleCounter fake{"backwards", backwards};
  RecordClock clock;
  clock.start(&fake);
  EXPECT_STREQ(clock.name(), "monotonic");
}

// A counter that ticks every 16 ns (as some emulated timers do) is
// too coarse for the bounds above.
std::uint64_t every_16_ns() { return monotonic_ns() / 16; }
TEST(RecordClock, ACoarseCounterIsRefused) {
  const CycleCounter coarse{"coarse", every_16_ns};
  RecordClock clock;
  clock.start(&coarse);
  EXPECT_STREQ(clock.name(), "monotonic");
  const CycleCounter fine{"fine", three_per_ns};
  clock.start(&fine);
  EXPECT_STREQ(clock.name(), "fine");
}

// The arch's own counter, where this system has one that the record clock
// takes.
TEST(RecordClock, TheArchCounterConvertsBetweenClockReads) {
  const CycleCounter *counter = xsdt::rt::machdep::cycle_counter();
  if (!counter)
    GTEST_SKIP() << "no cycle counter for records here: they read "
                    "CLOCK_MONOTONIC";
  RecordClock clock;
  clock.start(counter);
  if (clock.name() != std::string(counter->name))
    GTEST_SKIP() << "the counter " << counter->name
                 << " is too coarse here: records read CLOCK_MONOTONIC";
  expect_bounded_and_ordered(clock, sample(clock, 20000, 0));
  expect_bounded_and_ordered(clock, sample(clock, 2000, 20000));
}

} // namespace
