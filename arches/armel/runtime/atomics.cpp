// The atomic operations the compilers leave to library calls on ARMv5TE,
// which has no ldrex/strex: gcc-12 calls __atomic_*_8 (its 1..4-byte ones
// are libgcc's __sync_* calls, built on the kernel's helpers), clang-14
// calls __atomic_* for every size. libatomic would take a lock for some of
// them, and libxsdt runs in signal handlers, where a lock the interrupted
// thread holds never comes free. These are lock-free instead: Linux maps
// its ARM user helpers at the top of every process (Documentation/arm/
// kernel_user_helpers.rst): a memory barrier, a 32-bit and a 64-bit
// compare-and-exchange that the kernel restarts if it preempts them, safe
// in a signal handler. Each is defined under a name of its own and given the
// library name as its assembler name (gcc knows the library names as
// builtins and takes no definition of them), hidden: libxsdt's own, not
// exported by libxsdt.so.
#include <cstdint>

namespace {

using Cmpxchg32 = int (*)(std::int32_t old_value, std::int32_t new_value,
                          volatile std::int32_t *ptr);
using Cmpxchg64 = int (*)(const std::int64_t *old_value,
                          const std::int64_t *new_value,
                          volatile std::int64_t *ptr);
using Barrier = void (*)();

// The helpers' fixed addresses (0 on success for both exchanges; the 64-bit
// one since helper version 5, Linux 3.1).
const auto kCmpxchg32 = reinterpret_cast<Cmpxchg32>(0xffff0fc0u);
const auto kBarrier = reinterpret_cast<Barrier>(0xffff0fa0u);
const auto kCmpxchg64 = reinterpret_cast<Cmpxchg64>(0xffff0f60u);

template <typename T> T plain_load(const volatile void *p) {
  kBarrier();
  const T value = *static_cast<const volatile T *>(p);
  kBarrier();
  return value;
}

template <typename T> void plain_store(volatile void *p, T value) {
  kBarrier();
  *static_cast<volatile T *>(p) = value;
  kBarrier();
}

// Replaces *p with update(old) and returns old.
template <typename Update>
std::uint32_t update32(volatile void *p, Update update) {
  auto *word = static_cast<volatile std::int32_t *>(p);
  for (;;) {
    const std::int32_t old = *word;
    const auto next =
        static_cast<std::int32_t>(update(static_cast<std::uint32_t>(old)));
    if (kCmpxchg32(old, next, word) == 0)
      return static_cast<std::uint32_t>(old);
  }
}

template <typename Update>
std::uint64_t update64(volatile void *p, Update update) {
  auto *word = static_cast<volatile std::int64_t *>(p);
  for (;;) {
    // A torn read only makes the exchange fail and the loop read again.
    const std::int64_t old = *word;
    const auto next =
        static_cast<std::int64_t>(update(static_cast<std::uint64_t>(old)));
    if (kCmpxchg64(&old, &next, word) == 0)
      return static_cast<std::uint64_t>(old);
  }
}

} // namespace

extern "C" {
#pragma GCC visibility push(hidden)
std::uint8_t xsdt_atomic_load_1(const volatile void *,
                                int) __asm__("__atomic_load_1");
std::uint16_t xsdt_atomic_load_2(const volatile void *,
                                 int) __asm__("__atomic_load_2");
std::uint32_t xsdt_atomic_load_4(const volatile void *,
                                 int) __asm__("__atomic_load_4");
std::uint64_t xsdt_atomic_load_8(const volatile void *,
                                 int) __asm__("__atomic_load_8");
void xsdt_atomic_store_1(volatile void *, std::uint8_t,
                         int) __asm__("__atomic_store_1");
void xsdt_atomic_store_2(volatile void *, std::uint16_t,
                         int) __asm__("__atomic_store_2");
void xsdt_atomic_store_4(volatile void *, std::uint32_t,
                         int) __asm__("__atomic_store_4");
void xsdt_atomic_store_8(volatile void *, std::uint64_t,
                         int) __asm__("__atomic_store_8");
std::uint32_t xsdt_atomic_exchange_4(volatile void *, std::uint32_t,
                                     int) __asm__("__atomic_exchange_4");
bool xsdt_atomic_compare_exchange_4(volatile void *, void *, std::uint32_t,
                                    bool, int,
                                    int) __asm__("__atomic_compare_exchange_4");
std::uint32_t xsdt_atomic_fetch_add_4(volatile void *, std::uint32_t,
                                      int) __asm__("__atomic_fetch_add_4");
std::uint32_t xsdt_atomic_fetch_sub_4(volatile void *, std::uint32_t,
                                      int) __asm__("__atomic_fetch_sub_4");
std::uint64_t xsdt_atomic_fetch_add_8(volatile void *, std::uint64_t,
                                      int) __asm__("__atomic_fetch_add_8");
#pragma GCC visibility pop
}

std::uint8_t xsdt_atomic_load_1(const volatile void *p, int) {
  return plain_load<std::uint8_t>(p);
}

std::uint16_t xsdt_atomic_load_2(const volatile void *p, int) {
  return plain_load<std::uint16_t>(p);
}

std::uint32_t xsdt_atomic_load_4(const volatile void *p, int) {
  return plain_load<std::uint32_t>(p);
}

std::uint64_t xsdt_atomic_load_8(const volatile void *p, int) {
  return update64(const_cast<volatile void *>(p),
                  [](std::uint64_t v) { return v; });
}

void xsdt_atomic_store_1(volatile void *p, std::uint8_t v, int) {
  plain_store(p, v);
}

void xsdt_atomic_store_2(volatile void *p, std::uint16_t v, int) {
  plain_store(p, v);
}

void xsdt_atomic_store_4(volatile void *p, std::uint32_t v, int) {
  plain_store(p, v);
}

void xsdt_atomic_store_8(volatile void *p, std::uint64_t v, int) {
  update64(p, [v](std::uint64_t) { return v; });
}

std::uint32_t xsdt_atomic_exchange_4(volatile void *p, std::uint32_t v, int) {
  return update32(p, [v](std::uint32_t) { return v; });
}

bool xsdt_atomic_compare_exchange_4(volatile void *p, void *expected,
                                    std::uint32_t desired, bool, int, int) {
  auto *want = static_cast<std::uint32_t *>(expected);
  auto *word = static_cast<volatile std::int32_t *>(p);
  for (;;) {
    const std::int32_t old = *word;
    if (static_cast<std::uint32_t>(old) != *want) {
      *want = static_cast<std::uint32_t>(old);
      kBarrier();
      return false;
    }
    if (kCmpxchg32(old, static_cast<std::int32_t>(desired), word) == 0)
      return true;
  }
}

std::uint32_t xsdt_atomic_fetch_add_4(volatile void *p, std::uint32_t v, int) {
  return update32(p, [v](std::uint32_t old) { return old + v; });
}

std::uint32_t xsdt_atomic_fetch_sub_4(volatile void *p, std::uint32_t v, int) {
  return update32(p, [v](std::uint32_t old) { return old - v; });
}

std::uint64_t xsdt_atomic_fetch_add_8(volatile void *p, std::uint64_t v, int) {
  return update64(p, [v](std::uint64_t old) { return old + v; });
}
