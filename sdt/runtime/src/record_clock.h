// Private to libxsdt: the clock of a consumer session's records. A hit
// reads it (now()); the drain converts what the hit read into
// CLOCK_MONOTONIC nanoseconds (to_ns()). Where the arch has a cheap
// counter (machdep::cycle_counter()), a hit reads that
// and the conversion interpolates between (counter, CLOCK_MONOTONIC)
// pairs that the drain reads as it needs them, one on each side of every
// record it converts; elsewhere, or when the session asks for it, a hit
// reads CLOCK_MONOTONIC itself and the conversion is the identity.
//
// What the conversion keeps: it is exact at every pair (to the pair's own
// reading error, half the counter ticks one CLOCK_MONOTONIC read takes),
// linear between two, and never decreasing, so that records stay in the
// order their counters were read and a record lies between the
// CLOCK_MONOTONIC reads its program made around the hit.
#ifndef XSDT_RUNTIME_RECORD_CLOCK_H
#define XSDT_RUNTIME_RECORD_CLOCK_H

#include <cstddef>
#include <cstdint>
#include <deque>

namespace xsdt::rt {

namespace machdep {
struct CycleCounter;
}

// CLOCK_MONOTONIC in nanoseconds.
std::uint64_t monotonic_ns() noexcept;

class RecordClock {
public:
  // A (counter, nanoseconds) reading.
  struct Pair {
    std::uint64_t count;
    std::uint64_t ns;
  };

  // At the session's start, before any hit can read it: `counter` (null:
  // CLOCK_MONOTONIC at every hit), and the first pair.
  void start(const machdep::CycleCounter *counter);
  // "monotonic", or the counter's name.
  const char *name() const noexcept;
  // At a hit: async-signal-safe, no system call where a counter is used.
  std::uint64_t now() const noexcept;
  // At the drain (one thread), for a value now() returned before.
  std::uint64_t to_ns(std::uint64_t value);

private:
  void add_pair();
  std::uint64_t convert_slowly(std::uint64_t value);

  // The segment between two pairs that the last value fell in: the next
  // one most likely falls in it too (a ring's records are in order).
  struct Segment {
    Pair lo{1, 0}, hi{0, 0}; // empty until the first conversion
    double ns_per_count = 0;
  };
  Segment last_;

  const machdep::CycleCounter *counter_ = nullptr;
  // Increasing in both members; at most kKeptPairs, the newest last.
  std::deque<Pair> pairs_;
  static constexpr std::size_t kKeptPairs = 256;
  // A counter is used only if it ticks at least every 4 ns (measured over
  // kRateWindowNs at start).
  static constexpr std::uint64_t kMaxTickNs = 4;
  static constexpr std::uint64_t kRateWindowNs = 5000;
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_RECORD_CLOCK_H
