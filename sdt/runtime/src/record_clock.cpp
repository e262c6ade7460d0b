// libxsdt: the clock of a consumer session's records (record_clock.h).
#include "record_clock.h"

#include "machdep.h"

#include <algorithm>
#include <ctime>

namespace xsdt::rt {

std::uint64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

void RecordClock::start(const machdep::CycleCounter *counter) {
  counter_ = counter;
  pairs_.clear();
  last_ = Segment{};
  if (counter_)
    add_pair();
  if (!pairs_.empty()) {
    // Its rate, over a few microseconds: a counter that ticks less often
    // than every kMaxTickNs (some emulated timers, some boards' timebases
    // of a few MHz) would put a record outside the clock reads
    // around its hit; CLOCK_MONOTONIC is no coarser than its own source.
    const std::uint64_t start = monotonic_ns();
    while (monotonic_ns() - start < kRateWindowNs) {
    }
    add_pair();
    if (pairs_.size() == 2) {
      const Pair &a = pairs_.front(), &b = pairs_.back();
      if ((b.ns - a.ns) > kMaxTickNs * (b.count - a.count))
        pairs_.clear();
    } else {
      pairs_.clear();
    }
  }
  if (pairs_.empty()) // a counter that went back, stood still or is coarse
    counter_ = nullptr;
}

const char *RecordClock::name() const noexcept {
  return counter_ ? counter_->name : "monotonic";
}

std::uint64_t RecordClock::now() const noexcept {
  return counter_ ? counter_->read() : monotonic_ns();
}

// The counter on both sides of a CLOCK_MONOTONIC read, whose own counter
// read lies between them: the middle, from the tightest of a few tries (an
// interrupt in one widens it). Kept increasing in both members, so that
// the conversion never decreases.
void RecordClock::add_pair() {
  Pair best{0, 0};
  std::uint64_t best_width = UINT64_MAX;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const std::uint64_t before = counter_->read();
    const std::uint64_t ns = monotonic_ns();
    const std::uint64_t after = counter_->read();
    if (after < before || after - before >= best_width)
      continue;
    best_width = after - before;
    best = {before + (after - before) / 2, ns};
  }
  if (best_width == UINT64_MAX) // the counter went back every time
    return;
  if (!pairs_.empty()) {
    const Pair &last = pairs_.back();
    if (best.count <= last.count || best.ns <= last.ns)
      return; // no newer than the last one: it stands for both
  }
  pairs_.push_back(best);
  if (pairs_.size() > kKeptPairs)
    pairs_.pop_front();
}

std::uint64_t RecordClock::to_ns(std::uint64_t value) {
  if (!counter_)
    return value;
  if (value >= last_.lo.count && value < last_.hi.count) {
    // Clamped to the segment, so that rounding cannot take a value in it
    // past the next pair.
    const auto offset = static_cast<std::uint64_t>(
        static_cast<double>(value - last_.lo.count) * last_.ns_per_count);
    return std::min(last_.lo.ns + offset, last_.hi.ns);
  }
  return convert_slowly(value);
}

std::uint64_t RecordClock::convert_slowly(std::uint64_t value) {
  // The value was read before this drain saw it: a pair read now is newer.
  if (value >= pairs_.back().count)
    add_pair();
  if (pairs_.size() < 2 || value <= pairs_.front().count)
    return pairs_.front().ns; // before the first pair: the session's start
  if (value >= pairs_.back().count)
    return pairs_.back().ns; // a counter ahead of the clock: clamped
  // The first pair above the value, and the one below it. In floating
  // point: counts times nanoseconds overflows 64 bits after a few seconds
  // between pairs.
  const auto above = std::upper_bound(
      pairs_.begin(), pairs_.end(), value,
      [](std::uint64_t v, const Pair &p) { return v < p.count; });
  last_.lo = *(above - 1);
  last_.hi = *above;
  last_.ns_per_count = static_cast<double>(last_.hi.ns - last_.lo.ns) /
                       static_cast<double>(last_.hi.count - last_.lo.count);
  return to_ns(value);
}

} // namespace xsdt::rt
