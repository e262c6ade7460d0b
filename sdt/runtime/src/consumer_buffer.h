// The per-thread record buffer of the consumer API (private to libxsdt).
//
// One ThreadBuffer belongs to one producer thread (claimed by a CAS on
// `owner`) and to the consumer (xsdt_work). It is a single-producer,
// single-consumer byte ring of variable-size entries:
//
//   u32 size         of the entry in bytes, this header included (a multiple
//                    of 8)
//   u32 probe index  kPadding for the filler written when an entry does not
//                    fit before the end of the ring (the consumer skips it)
//   u64 timestamp    CLOCK_MONOTONIC nanoseconds (0 with timestamps off)
//   u64 args[argc]   argc = (size - 16) / 8
//
// head (producer) and tail (consumer) are positions in [0, 2 * capacity):
// the extra lap tells a full ring from an empty one without a spare slot
// and without a division on the hit path.
//
// The producer side runs on the hit path, possibly in a trap handler: it
// never locks, allocates or calls anything but the atomics below. The
// owning thread's nested hits (a trap-mode hit interrupting an SDT hit on
// the same thread) are excluded by `busy`, which only the owning thread and
// its signal handlers touch, so a load followed by a store is enough: a
// nested hit runs to completion before the interrupted one continues.
#ifndef XSDT_RUNTIME_CONSUMER_BUFFER_H
#define XSDT_RUNTIME_CONSUMER_BUFFER_H

#include "atomic_count.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace xsdt::rt {

// The atomics the hit path uses never hide a lock (atomic_count.h).

class alignas(64) ThreadBuffer {
public:
  static constexpr std::uint32_t kPadding = 0xffffffffu;
  static constexpr std::size_t kHeaderBytes = 16;
  static constexpr std::size_t kGranule = 8;
  static constexpr int kMaxArgs = 12; // XSDT_MAX_ARGS

  // storage: capacity bytes of an array of std::uint64_t (8-byte aligned,
  // so the entries' arguments can be read in place); capacity a multiple
  // of 8.
  void attach(unsigned char *storage, std::size_t capacity) {
    data_ = storage;
    capacity_ = capacity;
  }
  std::size_t capacity() const { return capacity_; }

  static std::size_t entry_bytes(int argc) {
    return kHeaderBytes + static_cast<std::size_t>(argc) * kGranule;
  }

  // ---- Producer (the owning thread) -----------------------------------

  // Appends one entry; false when it does not fit (the caller counts the
  // drop). Async-signal-safe.
  bool append(std::uint32_t probe_index, std::uint64_t timestamp,
              const std::uint64_t *args, int argc) noexcept {
    if (argc < 0 || argc > kMaxArgs)
      return false;
    const std::size_t size = entry_bytes(argc);
    const std::size_t head = head_.load(std::memory_order_relaxed);
    std::size_t at = offset(head);
    const std::size_t until_end = capacity_ - at;
    // An entry never wraps: if it does not fit before the end, the rest of
    // the ring is filled with padding and the entry starts at offset 0.
    const std::size_t padding = until_end < size ? until_end : 0;
    if (size > capacity_)
      return false;
    // The consumer's position as last seen: it only moves forward, so this
    // underestimates the room. Read again only when it seems full, so that
    // the producer does not pull the consumer's cache line on every hit.
    if (distance(seen_tail_, head) + padding + size > capacity_) {
      seen_tail_ = tail_.load(std::memory_order_acquire);
      if (distance(seen_tail_, head) + padding + size > capacity_)
        return false;
    }
    std::size_t next = head;
    if (padding) {
      write_header(at, static_cast<std::uint32_t>(padding), kPadding);
      next = advance(next, padding);
      at = 0;
    }
    write_header(at, static_cast<std::uint32_t>(size), probe_index);
    std::memcpy(data_ + at + 8, &timestamp, 8);
    copy_args(data_ + at + kHeaderBytes, args, argc);
    head_.store(advance(next, size), std::memory_order_release);
    return true;
  }

  // ---- Consumer (xsdt_work) --------------------------------------------

  // Calls visit(probe_index, timestamp, args, argc) for each entry, oldest
  // first, releasing its space after it returns; stops after an entry for
  // which visit returns false. Returns false when it stopped early.
  template <class Visit> bool drain(Visit &&visit) {
    std::size_t tail = tail_.load(std::memory_order_relaxed);
    const std::size_t head = head_.load(std::memory_order_acquire);
    // The space is released every kReleaseEvery entries and at the end,
    // rather than after each: every release moves the consumer's cache line
    // to the producer when it next looks.
    int unreleased = 0;
    while (tail != head) {
      const std::size_t at = offset(tail);
      std::uint32_t size, probe_index;
      std::memcpy(&size, data_ + at, 4);
      std::memcpy(&probe_index, data_ + at + 4, 4);
      bool go_on = true;
      if (probe_index != kPadding) {
        std::uint64_t timestamp;
        const int argc = static_cast<int>((size - kHeaderBytes) / kGranule);
        std::memcpy(&timestamp, data_ + at + 8, 8);
        // In place: the entry stays put until its space is released, and
        // it is 8-byte aligned in storage of 8-byte words (see attach).
        const auto *args =
            reinterpret_cast<const std::uint64_t *>(data_ + at + kHeaderBytes);
        go_on = visit(probe_index, timestamp, args, argc);
      }
      tail = advance(tail, size);
      if (++unreleased == kReleaseEvery || !go_on) {
        tail_.store(tail, std::memory_order_release);
        unreleased = 0;
      }
      if (!go_on)
        return false;
    }
    tail_.store(tail, std::memory_order_release);
    return true;
  }

  // Calls visit(probe_index) for each entry not drained yet, oldest first,
  // without releasing anything: what count() adds for records still
  // buffered. Consumer side, like drain (never at the same time as it).
  template <class Visit> void peek(Visit &&visit) const {
    std::size_t tail = tail_.load(std::memory_order_relaxed);
    const std::size_t head = head_.load(std::memory_order_acquire);
    while (tail != head) {
      const std::size_t at = offset(tail);
      std::uint32_t size, probe_index;
      std::memcpy(&size, data_ + at, 4);
      std::memcpy(&probe_index, data_ + at + 4, 4);
      if (probe_index != kPadding)
        visit(probe_index);
      tail = advance(tail, size);
    }
  }

  bool empty() const {
    return tail_.load(std::memory_order_relaxed) ==
           head_.load(std::memory_order_acquire);
  }

  // The thread that claimed this buffer (kernel tid), 0 while free.
  std::atomic<std::int32_t> owner{0};
  // Hits of the owning thread that found the ring full or busy. Written by
  // the owning thread, read by the consumer.
  AtomicCount drops{0};
  // Consumer-private: drops already reported by xsdt_work.
  std::uint64_t drops_reported = 0;

private:
  static constexpr int kReleaseEvery = 64;

  std::size_t offset(std::size_t position) const {
    return position >= capacity_ ? position - capacity_ : position;
  }
  std::size_t advance(std::size_t position, std::size_t n) const {
    std::size_t next = position + n;
    return next >= 2 * capacity_ ? next - 2 * capacity_ : next;
  }
  std::size_t distance(std::size_t from, std::size_t to) const {
    return to >= from ? to - from : to + 2 * capacity_ - from;
  }
  // The arguments, one 8-byte store each. Not memcpy with a variable size:
  // that is a libc call on the hit path (a tenth of an event's time), and
  // compilers turn a plain copy loop back into one.
  static void copy_args(unsigned char *to, const std::uint64_t *args,
                        int argc) {
    static_assert(kMaxArgs == 12, "one case per argument below");
    switch (argc) {
    case 12:
      std::memcpy(to + 88, &args[11], 8);
      [[fallthrough]];
    case 11:
      std::memcpy(to + 80, &args[10], 8);
      [[fallthrough]];
    case 10:
      std::memcpy(to + 72, &args[9], 8);
      [[fallthrough]];
    case 9:
      std::memcpy(to + 64, &args[8], 8);
      [[fallthrough]];
    case 8:
      std::memcpy(to + 56, &args[7], 8);
      [[fallthrough]];
    case 7:
      std::memcpy(to + 48, &args[6], 8);
      [[fallthrough]];
    case 6:
      std::memcpy(to + 40, &args[5], 8);
      [[fallthrough]];
    case 5:
      std::memcpy(to + 32, &args[4], 8);
      [[fallthrough]];
    case 4:
      std::memcpy(to + 24, &args[3], 8);
      [[fallthrough]];
    case 3:
      std::memcpy(to + 16, &args[2], 8);
      [[fallthrough]];
    case 2:
      std::memcpy(to + 8, &args[1], 8);
      [[fallthrough]];
    case 1:
      std::memcpy(to, &args[0], 8);
      [[fallthrough]];
    default:
      break;
    }
  }
  void write_header(std::size_t at, std::uint32_t size,
                    std::uint32_t probe_index) {
    std::memcpy(data_ + at, &size, 4);
    std::memcpy(data_ + at + 4, &probe_index, 4);
  }

  unsigned char *data_ = nullptr;
  std::size_t capacity_ = 0;

  // Separate cache lines: what the producer writes on every hit (head_,
  // seen_tail_, busy) and what the consumer writes (tail_).
  alignas(64) std::atomic<std::size_t> head_{0};
  std::size_t seen_tail_ = 0; // producer-private, see append

public:
  // Set while the owning thread appends (see the file comment).
  std::atomic<std::uint32_t> busy{0};

private:
  alignas(64) std::atomic<std::size_t> tail_{0};
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_CONSUMER_BUFFER_H
