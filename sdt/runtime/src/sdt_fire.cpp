// libxsdt, SDT(9) part: xsdt_sdt_fire(), the out-of-line path of every
// enabled site, and what lets disable promise that no handler runs after
// it returns. A unit of its own, apart from enable and disable: it is the
// hot path (a jump-mode hit costs this code plus the handler's call), and
// its entry points must stay in one translation unit with the thread
// slots and the handler call, so that they inline them and reach the slot
// in initial-exec TLS with one load.
//
// Concurrency model (enable, disable and list serialise on api_lock(), see
// sdt_enable.cpp; the trap table is trap_table.cpp's).
//  * A probe is enabled by storing a pointer to its Armed record (handler,
//    user, info) in the probe object's `runtime` slot, after its sites are
//    written. xsdt_sdt_fire() reads that slot; it takes no lock, allocates
//    nothing, makes no system call and does no atomic read-modify-write on
//    shared data once its thread owns a slot.
//  * "No handler after disable returns": every thread owns a cache-line
//    slot whose counter is odd while it runs a handler; the fire path makes
//    it odd *before* it reloads `runtime`. Disable clears `runtime`, runs
//    an asymmetric barrier (membarrier PRIVATE_EXPEDITED; or, where that is
//    missing, the fire path pays a seq_cst fence instead), then waits until
//    every slot that was odd has moved on. Threads beyond the slots count
//    themselves in two shared counters, flipped like SRCU's.
#include "sdt_fire.h"

#include "errors.h"
#include "sdt_probe.h"
#include "tsan.h"
#include "usdt_jump.h"
#include "xsdt/sdt-runtime.h"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <utility>

// ThreadSanitizer does not model fences (GCC's -Wtsan rejects
// std::atomic_thread_fence, even in a branch never taken) nor membarrier,
// so under TSan (XSDT_UNDER_TSAN) the protocol is written with seq_cst
// accesses instead; see fire_in_slot.
namespace xsdt::rt {
namespace {

// ---- In-flight handlers: thread slots and the barrier ----------------------

// Enough for the threads of most programs; the rest use the shared
// counters below (correct, but an atomic add per hit).
constexpr std::size_t kThreadSlots = 256;

// One cache line, written only by the owning thread.
struct alignas(64) ThreadSlot {
  // Odd while the thread runs a handler.
  std::atomic<std::uint32_t> seq{0};
  // The arguments of the thread's outermost hit, which the handler gets:
  // here rather than in the fire function's frame, because those of a
  // probe with fewer than XSDT_SDT_MAX_ARGS must be 0, and here they
  // already are unless a hit with more ran since (args[width..] are 0):
  // a one-argument hit stores one argument, not one and six zeros.
  std::uint32_t width = 0;
  std::uint64_t args[XSDT_SDT_MAX_ARGS] = {};
};
static_assert(sizeof(ThreadSlot) == 64);
ThreadSlot g_slots[kThreadSlots];
// 1 while a thread owns the slot of the same index. A word, not a bool: a
// compare-and-swap on a byte needs libatomic on riscv64, which C programs
// do not link.
std::atomic<std::uint32_t> g_slot_owned[kThreadSlots];

// Initial-exec: one load from the thread pointer, no __tls_get_addr call.
__thread ThreadSlot *t_slot __attribute__((tls_model("initial-exec"))) =
    nullptr;
pthread_key_t g_slot_key; // its destructor gives the slot back
// Set when the thread found every slot taken: it no longer searches.
__thread bool t_slots_exhausted __attribute__((tls_model("initial-exec")));

// Threads without a slot: the counter of the current epoch's parity.
struct alignas(64) SharedCount {
  std::atomic<long> inside{0};
};
SharedCount g_shared[2];
std::atomic<unsigned> g_shared_epoch{0};
// This thread's part of g_shared, for the child of a fork.
__thread long t_shared_inside[2] __attribute__((tls_model("initial-exec")));

// True when the fire path must fence (no membarrier): decided once, at the
// first enable, before any site is written, and never changed while other
// threads can run the fire path.
std::atomic<bool> g_fire_fences{true};

// What a hit runs once the protocol below lets it: load the gate (an
// SDT probe's `runtime`, a USDT jump site's cell) with the given order
// and, when it is armed, call the handler. Two shapes, one protocol.
// The arguments are an array the fire function builds once: a call object
// holding them by value was stored twice on every hit (the object, whose
// address the slow path takes, and the handler's array), 14 stores of which
// 10 zeros for a one-argument probe.
struct SdtCall {
  xsdt_sdt_probe *probe;
  const std::uint64_t *args; // XSDT_SDT_MAX_ARGS of them
  template <int Order> void run() const {
    const auto *armed =
        static_cast<const Armed *>(__atomic_load_n(&probe->runtime, Order));
    if (!armed)
      return;
    armed->handler(armed->info, args, armed->user);
  }
};
// The outermost hit of a thread with a slot: the N arguments go to the
// slot's array, once the slot is odd (a signal handler's hit in between
// then nests and leaves the array alone).
// The values are members of their own, not an array: an array is built
// in the frame and copied, with loads wider than its stores (a
// store-forwarding stall of the seven-argument hit).
template <int N> struct SdtSlotCall {
  xsdt_sdt_probe *probe;
  ThreadSlot *slot;
  std::uint64_t a0, a1, a2, a3, a4, a5, a6;
  template <int Order> __attribute__((always_inline)) void run() const {
    const auto *armed =
        static_cast<const Armed *>(__atomic_load_n(&probe->runtime, Order));
    if (!armed)
      return;
    std::uint64_t *args = slot->args;
    if (__builtin_expect(slot->width != N, 0)) {
      for (int i = N; i < XSDT_SDT_MAX_ARGS; ++i)
        args[i] = 0;
      slot->width = N;
    }
    const std::uint64_t values[] = {a0, a1, a2, a3, a4, a5, a6};
    static_assert(sizeof values / sizeof *values == XSDT_SDT_MAX_ARGS);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((args[I] = values[I]), ...);
    }
    (std::make_index_sequence<N>{});
    armed->handler(armed->info, args, armed->user);
  }
};
struct UsdtJumpCall {
  const UsdtJumpCell *cell;
  RegisterFile *regs;
  template <int Order> void run() const {
    const void *armed = __atomic_load_n(&cell->armed, Order);
    if (armed)
      cell->run(armed, regs);
  }
};

// At thread exit. A thread that ends inside a handler (pthread_exit) must
// not leave its counter odd: disable would wait for it forever.
void give_back_slot(void *data) {
  auto *slot = static_cast<ThreadSlot *>(data);
  const std::uint32_t seq = slot->seq.load(std::memory_order_relaxed);
  if (seq & 1)
    slot->seq.store(seq + 1, std::memory_order_release);
  t_slot = nullptr;
  g_slot_owned[slot - g_slots].store(0, std::memory_order_release);
}

// Once per thread: the first free slot, or null when all are taken.
ThreadSlot *claim_slot() {
  for (std::size_t i = 0; i < kThreadSlots; ++i) {
    std::uint32_t free = 0;
    if (g_slot_owned[i].load(std::memory_order_relaxed) ||
        !g_slot_owned[i].compare_exchange_strong(free, 1,
                                                 std::memory_order_acquire))
      continue;
    ThreadSlot &slot = g_slots[i];
    if (pthread_setspecific(g_slot_key, &slot) != 0) {
      g_slot_owned[i].store(0, std::memory_order_release);
      return nullptr;
    }
    t_slot = &slot;
    return &slot;
  }
  return nullptr;
}

// The path of a thread without a slot. The epoch is read first; a reader
// that read an old epoch and counts itself late is harmless, because its
// seq_cst add is then ordered after the disabler's clear.
template <class Call> __attribute__((noinline)) void fire_counted(Call call) {
  const unsigned parity = g_shared_epoch.load(std::memory_order_acquire) & 1u;
  ++t_shared_inside[parity];
  g_shared[parity].inside.fetch_add(1, std::memory_order_seq_cst);
  call.template run<__ATOMIC_SEQ_CST>();
  g_shared[parity].inside.fetch_sub(1, std::memory_order_release);
  --t_shared_inside[parity];
}

template <class Call>
void enter_slot(ThreadSlot *slot, std::uint32_t seq, const Call &call);

// A hit on a thread that owns a slot.
template <class Call>
__attribute__((always_inline)) inline void fire_in_slot(ThreadSlot *slot,
                                                        const Call &call) {
  const std::uint32_t seq = slot->seq.load(std::memory_order_relaxed);
  if (seq & 1) { // nested (a handler fired a probe): the outer call covers it
    call.template run<__ATOMIC_ACQUIRE>();
    return;
  }
  enter_slot(slot, seq, call);
}

// The outermost hit on a thread's slot, whose counter is `seq` (even).
template <class Call>
__attribute__((always_inline)) inline void
enter_slot(ThreadSlot *slot, std::uint32_t seq, const Call &call) {
#ifdef XSDT_UNDER_TSAN
  slot->seq.store(seq + 1, std::memory_order_seq_cst);
#else
  slot->seq.store(seq + 1, std::memory_order_relaxed);
#endif
  // Even again when the handler returns, or when a C++ handler throws
  // through us. The value comes from the register, not a reload: a second
  // load would add a store-to-load forwarding delay to back-to-back hits.
  // Only this thread writes the counter, and a signal handler that fires in
  // between leaves it odd, as it found it.
  struct Leave {
    ThreadSlot *slot;
    std::uint32_t seq;
    ~Leave() { slot->seq.store(seq, std::memory_order_release); }
  } leave{slot, seq + 2};
  // The odd counter must be visible before `runtime` is read again. With
  // membarrier the disabler forces that on every thread, so a compiler
  // barrier suffices here; otherwise this thread fences itself.
#ifdef XSDT_UNDER_TSAN
  // Under TSan: the store above and this load are seq_cst, as are the
  // disabler's clear of `runtime` and its first load of each counter
  // (wait_for_handlers). The four are in one total order in which each
  // thread's store precedes its load, so if this load misses the clear
  // (precedes it), the disabler's load follows the odd store and sees it,
  // or a later value: the guarantee the fence or membarrier gives in the
  // form below, stated in operations that TSan understands. Only the
  // barrier differs; the slots, the nesting and the waits are the same.
  call.template run<__ATOMIC_SEQ_CST>();
#else
  // Expected false: membarrier is there on every kernel since 4.14, and
  // the fence path must not cost the common one a taken branch.
  if (__builtin_expect(g_fire_fences.load(std::memory_order_relaxed), 0))
    std::atomic_thread_fence(std::memory_order_seq_cst);
  else
    std::atomic_signal_fence(std::memory_order_seq_cst);
  call.template run<__ATOMIC_ACQUIRE>();
#endif
}

// The first hit of a thread, and every hit of a thread without a slot.
template <class Call>
__attribute__((noinline)) void fire_without_slot(Call call) {
  if (!t_slots_exhausted) {
    if (ThreadSlot *slot = claim_slot()) {
      fire_in_slot(slot, call);
      return;
    }
    t_slots_exhausted = true;
  }
  fire_counted(call);
}

// Every hit: on the thread's slot, or the slow path.
template <class Call>
__attribute__((always_inline)) inline void fire(const Call &call) {
  ThreadSlot *slot = t_slot;
  if (__builtin_expect(slot == nullptr, 0)) {
    fire_without_slot(call);
    return;
  }
  fire_in_slot(slot, call);
}

// Waiting for a handler to finish: usually a few hundred nanoseconds, but
// a thread preempted inside one needs a CPU first, so sleep soon rather
// than compete with it.
void pause_briefly(unsigned &spins) {
  if (++spins < 64)
    return;
  if (spins < 80) {
    sched_yield();
    return;
  }
  timespec ts{0, 50 * 1000};
  nanosleep(&ts, nullptr);
}

void membarrier_or_die() {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
      return;
    if (errno == EPERM) // registration lost (a fork): register again
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
    timespec ts{0, 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
  // The threads run without a fence: without the barrier, disable cannot
  // keep its promise. Registered membarrier only fails transiently.
  std::fprintf(stderr, "libxsdt: membarrier(PRIVATE_EXPEDITED): %s\n",
               std::strerror(errno));
  std::abort();
}

} // namespace

// Called after every disabled probe's `runtime` was cleared (seq_cst):
// returns once no thread can still be in one of their handlers.
void wait_for_handlers() {
  // Either a thread's odd counter is visible below, or its reload of
  // `runtime` sees the null.
#ifdef XSDT_UNDER_TSAN
  // The seq_cst loads below do it (see fire_in_slot). membarrier still
  // runs, so that its calls (and their renewal after a fork) are tested.
  if (!g_fire_fences.load(std::memory_order_relaxed))
    membarrier_or_die();
  constexpr auto first_load = std::memory_order_seq_cst;
#else
  if (g_fire_fences.load(std::memory_order_relaxed))
    std::atomic_thread_fence(std::memory_order_seq_cst);
  else
    membarrier_or_die();
  constexpr auto first_load = std::memory_order_acquire;
#endif
  for (ThreadSlot &slot : g_slots) {
    // A handler that disables (against the rules) must not wait for itself.
    if (&slot == t_slot)
      continue;
    const std::uint32_t seen = slot.seq.load(first_load);
    if (!(seen & 1))
      continue;
    unsigned spins = 0;
    while (slot.seq.load(std::memory_order_acquire) == seen)
      pause_briefly(spins);
  }
  // Shared counters: flip the epoch so that new arrivals count in the other
  // counter, wait for the old one to drain, and do it twice, so that a
  // thread that counted itself in either before the clear has left.
  for (int round = 0; round < 2; ++round) {
    const unsigned old_epoch = g_shared_epoch.load(std::memory_order_relaxed);
    g_shared_epoch.store(old_epoch + 1, std::memory_order_seq_cst);
    const unsigned parity = old_epoch & 1u;
    const long own = t_shared_inside[parity];
    unsigned spins = 0;
    while (g_shared[parity].inside.load(std::memory_order_seq_cst) > own)
      pause_briefly(spins);
  }
}

namespace {

// The child of a fork has only the forking thread: the others' slots and
// counts are gone with them.
void reset_after_fork() {
  for (std::size_t i = 0; i < kThreadSlots; ++i) {
    ThreadSlot &slot = g_slots[i];
    if (&slot == t_slot)
      continue;
    std::uint32_t seq = slot.seq.load(std::memory_order_relaxed);
    slot.seq.store(seq + (seq & 1), std::memory_order_relaxed);
    g_slot_owned[i].store(0, std::memory_order_relaxed);
  }
  for (int parity = 0; parity < 2; ++parity)
    g_shared[parity].inside.store(t_shared_inside[parity]);
  if (!g_fire_fences.load() &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0,
              0) != 0)
    g_fire_fences.store(true); // single-threaded here: safe to switch
}

} // namespace

bool prepare_fire_path(xsdt_error *err) {
  // The SDT part and USDT jump mode each ask before their first write.
  static bool prepared = false; // under api_lock()
  if (prepared)
    return true;
  if (int e = pthread_key_create(&g_slot_key, give_back_slot)) {
    fail(err, XSDT_ERR_INTERNAL, "pthread_key_create: %s", std::strerror(e));
    return false;
  }
  if (int e = pthread_atfork(nullptr, nullptr, reset_after_fork)) {
    pthread_key_delete(g_slot_key);
    fail(err, XSDT_ERR_INTERNAL, "pthread_atfork: %s", std::strerror(e));
    return false;
  }
  // XSDT_SDT_BARRIER=fence forces the fence mode (what the fire path does
  // where membarrier is missing), to test it on systems that have one.
  const char *forced = std::getenv("XSDT_SDT_BARRIER");
  bool membarrier = false;
  if (!forced || std::strcmp(forced, "fence") != 0) {
    long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    membarrier = commands > 0 &&
                 (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                 syscall(__NR_membarrier,
                         MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }
  g_fire_fences.store(!membarrier, std::memory_order_seq_cst);
  prepared = true;
  return true;
}

namespace {

// A nested hit, or the first of a thread: the arguments in this frame.
// Out of line, so that the common hit's function has no frame for them.
__attribute__((noinline)) void fire_from_frame(struct xsdt_sdt_probe *probe,
                                               uint64_t a0, uint64_t a1,
                                               uint64_t a2, uint64_t a3,
                                               uint64_t a4, uint64_t a5,
                                               uint64_t a6) {
  // No early test of probe->runtime: SdtCall::run reads it once, after the
  // slot is odd, which the protocol needs anyway; a second load here would
  // only shorten the rare hit of a thread that passed the site just before
  // a disable. g_fire_fences is therefore read before any acquire: a stale
  // value can only be its initial true (prepare_fire_path clears it once,
  // before the first site is written; only a single-threaded fork child
  // sets it again), which costs a fence and is safe.
  const std::uint64_t args[XSDT_SDT_MAX_ARGS] = {a0, a1, a2, a3, a4, a5, a6};
  fire(SdtCall{probe, args});
}

// The out-of-line path of every site. Hot: a jump-mode hit costs this
// function plus the handler's call. Inlined into every entry point below,
// so that a site's call reaches the handler without another call. N is
// the probe's argument count.
template <int N>
__attribute__((always_inline)) inline void
fire_common(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1, uint64_t a2,
            uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6) {
  using namespace xsdt::rt;
  // The common hit: the thread's outermost, on its slot.
  if (ThreadSlot *slot = t_slot; __builtin_expect(slot != nullptr, 1)) {
    const std::uint32_t seq = slot->seq.load(std::memory_order_relaxed);
    if (__builtin_expect(!(seq & 1), 1)) {
      enter_slot(slot, seq,
                 SdtSlotCall<N>{probe, slot, a0, a1, a2, a3, a4, a5, a6});
      return;
    }
  }
  fire_from_frame(probe, a0, a1, a2, a3, a4, a5, a6);
}

} // namespace
} // namespace xsdt::rt

// ---- C entry points: what the sites call ----------------------------------

extern "C" {

void xsdt_sdt_fire(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                   uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t a6) {
  xsdt::rt::fire_common<7>(probe, a0, a1, a2, a3, a4, a5, a6);
}

// What the sites call: the probe's own argument count, so that a site's
// call passes few arguments (in registers); the rest read as 0.
void xsdt_sdt_fire0(struct xsdt_sdt_probe *probe) {
  xsdt::rt::fire_common<0>(probe, 0, 0, 0, 0, 0, 0, 0);
}
void xsdt_sdt_fire1(struct xsdt_sdt_probe *probe, uint64_t a0) {
  xsdt::rt::fire_common<1>(probe, a0, 0, 0, 0, 0, 0, 0);
}
void xsdt_sdt_fire2(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1) {
  xsdt::rt::fire_common<2>(probe, a0, a1, 0, 0, 0, 0, 0);
}
void xsdt_sdt_fire3(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                    uint64_t a2) {
  xsdt::rt::fire_common<3>(probe, a0, a1, a2, 0, 0, 0, 0);
}
void xsdt_sdt_fire4(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                    uint64_t a2, uint64_t a3) {
  xsdt::rt::fire_common<4>(probe, a0, a1, a2, a3, 0, 0, 0);
}
void xsdt_sdt_fire5(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                    uint64_t a2, uint64_t a3, uint64_t a4) {
  xsdt::rt::fire_common<5>(probe, a0, a1, a2, a3, a4, 0, 0);
}
void xsdt_sdt_fire6(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                    uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5) {
  xsdt::rt::fire_common<6>(probe, a0, a1, a2, a3, a4, a5, 0);
}
void xsdt_sdt_fire7(struct xsdt_sdt_probe *probe, uint64_t a0, uint64_t a1,
                    uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                    uint64_t a6) {
  xsdt::rt::fire_common<7>(probe, a0, a1, a2, a3, a4, a5, a6);
}

// What a USDT jump site's stub calls (arches/<arch>/runtime: the arch's
// entry saves the registers into regs and restores them after). Hidden:
// only libxsdt's own entry calls it.
__attribute__((visibility("hidden"))) void
xsdt_usdt_jump_hit(const xsdt::rt::UsdtJumpCell *cell,
                   xsdt::RegisterFile *regs) {
  using namespace xsdt::rt;
  fire(UsdtJumpCall{cell, regs});
}

} // extern "C"
