// The counters that the hit path and the patcher bump, and the session
// numbers that the hit path compares: atomics that never hide a lock (a
// trap handler that interrupted the lock's holder would wait on it for
// ever).
#ifndef XSDT_RUNTIME_ATOMIC_COUNT_H
#define XSDT_RUNTIME_ATOMIC_COUNT_H

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace xsdt::rt {

// Whether 8-byte atomics are lock-free here. clang for i686 reports them as
// only "sometimes" lock-free (a plain uint64_t is 4-byte aligned there);
// std::atomic<uint64_t> is 8-byte aligned, and at that alignment the
// operations are inline (cmpxchg8b), which is what the second form checks.
// An arch whose ISA has no atomic instructions, so that the
// compilers call library functions for them, defines those functions in
// its runtime, lock-free (XSDT_RT_ARCH_ATOMIC_CALLS, from arch.json's
// "runtime_cflags"); no libatomic is linked, so a call it lacks fails the
// link.
#if XSDT_RT_ARCH_ATOMIC_CALLS
inline constexpr bool kLockFree8 = true;
#else
inline constexpr bool kLockFree8 =
    std::atomic<std::uint64_t>::is_always_lock_free ||
    (alignof(std::atomic<std::uint64_t>) == 8 &&
     __atomic_always_lock_free(8, 0));
static_assert(std::atomic<std::uintptr_t>::is_always_lock_free);
static_assert(std::atomic<std::int32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
#endif

// 64 bits where those are lock-free, the word elsewhere (an ISA whose
// ll/sc is 32-bit only: libatomic takes a lock for 8 bytes). Such a count wraps
// after 2^32, and a session number comes back after 2^32 sessions.
using CountWord = std::conditional_t<kLockFree8, std::uint64_t, std::uintptr_t>;
using AtomicCount = std::atomic<CountWord>;

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_ATOMIC_COUNT_H
