// The consumer's hit path: the handlers that record a probe hit into this
// thread's buffer of the handle's session, and the per-thread state they
// keep. Separate from the session and selection code because it runs in
// signal context, under stricter rules than the rest of the consumer, and
// because the hot functions (on_sdt_hit, on_usdt_hit, record_hit,
// buffer_of_this_thread) must share one translation unit to be inlined.
//
// The hit path is shared by SDT hits (normal context) and USDT hits (the
// trap handler, which may interrupt an SDT hit on the same thread). It
// therefore never locks, allocates or makes a system call other than
// clock_gettime (unless timestamps are off) and, once per thread, gettid;
// a consumer's hit function (xsdt_handle_hit) runs under the same rules.
// On the common path it makes no atomic read-modify-write either: count()
// is summed from what the consumer drains, what is still buffered and the
// drops (see ProbeEntry).
#include "consumer_hits.h"

#include "consumer_buffer.h"
#include "consumer_handle.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <sys/syscall.h>
#include <unistd.h>

namespace xsdt::rt::consumer {
namespace {

// ---- Thread identity, cached per thread ------------------------------------
//
// initial-exec TLS: the general-dynamic model may call __tls_get_addr, which
// can allocate on a thread's first access to a dlopen'ed module's TLS, and
// the hit path must not allocate.

[[gnu::tls_model("initial-exec")]] thread_local std::int32_t t_tid = 0;

std::int32_t current_tid() noexcept {
  if (t_tid == 0) {
    int saved_errno = errno; // SDT handlers run in the program's context
    t_tid = static_cast<std::int32_t>(syscall(SYS_gettid));
    errno = saved_errno;
  }
  return t_tid;
}

// A thread's buffer per session (one go of one handle), so that several
// handles, and successive sessions, each find their own. Sessions are
// numbered from 1 and never reused, so a stale entry never matches. Only
// the thread itself and its signal handlers touch these: relaxed atomics
// (for signal safety) ordered by signal fences.
struct CachedBuffer {
  AtomicCount session;
  std::atomic<ThreadBuffer *> buffer; // null: no buffer for the thread
};
constexpr std::size_t kCachedSessions = 4;
[[gnu::tls_model(
    "initial-exec")]] thread_local CachedBuffer t_buffers[kCachedSessions];
// Set while this thread looks for or claims a buffer: a nested hit (signal)
// must not claim a second one for the same thread.
[[gnu::tls_model("initial-exec")]] thread_local std::atomic<int> t_claiming;

AtomicCount g_next_session{1};

// ---- The hit path (async-signal-safe) ---------------------------------------

// This thread's buffer in h's session, claiming a free one on the first
// hit; null when none is left (or while a claim is under way below us).
ThreadBuffer *buffer_of_this_thread(xsdt_hdl &h) noexcept {
  constexpr auto relaxed = std::memory_order_relaxed;
  for (const CachedBuffer &c : t_buffers)
    if (c.session.load(relaxed) == h.session)
      return c.buffer.load(relaxed);
  if (t_claiming.load(relaxed))
    return nullptr;
  t_claiming.store(1, relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const std::int32_t tid = current_tid();
  ThreadBuffer *found = nullptr;
  // The thread may own one already: its cache entry was evicted by other
  // sessions, or a dead thread with the same tid claimed it (its records
  // then carry the right tid all the same).
  for (std::size_t i = 0; i < h.nbuffers && !found; ++i)
    if (h.buffers[i].owner.load(relaxed) == tid)
      found = &h.buffers[i];
  for (std::size_t i = 0; i < h.nbuffers && !found; ++i) {
    std::int32_t free_owner = 0;
    if (h.buffers[i].owner.compare_exchange_strong(free_owner, tid,
                                                   std::memory_order_acq_rel))
      found = &h.buffers[i];
  }
  // A nested hit must see the entry either absent or complete.
  CachedBuffer &slot = t_buffers[h.session % kCachedSessions];
  slot.session.store(0, relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  slot.buffer.store(found, relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  slot.session.store(static_cast<CountWord>(h.session), relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  t_claiming.store(0, relaxed);
  return found;
}

// A hit that is not recorded: counted per buffer (for the drop reports,
// by thread) and per probe (for count()). Off the common path.
void count_drop(AtomicCount &drops, ProbeEntry &probe) noexcept {
  // Release: the consumer that sees a drop also sees the buffer's owner.
  drops.fetch_add(1, std::memory_order_release);
  probe.dropped.fetch_add(1, std::memory_order_relaxed);
}

// xsdt_handle_hit's function at one hit: false when it discards the hit.
// Out of line: only handles with a hit function pay for the record.
[[gnu::noinline]] bool run_hit_function(xsdt_hdl &h, ThreadBuffer &buffer,
                                        ProbeEntry &probe, std::uint64_t now,
                                        const std::uint64_t *args,
                                        int argc) noexcept {
  xsdt_record record;
  record.probe = &probe.desc;
  record.tid = static_cast<std::uint64_t>(current_tid());
  record.timestamp_ns = now;
  record.argc = argc;
  std::copy(args, args + argc, record.args);
  std::fill(record.args + argc, record.args + XSDT_MAX_ARGS, 0);
  void *area = h.areas
                   ? h.areas.get() +
                         static_cast<std::size_t>(&buffer - h.buffers.get()) *
                             h.area_stride
                   : nullptr;
  return h.hit_function(&record, area, h.hit_arg) != XSDT_HIT_DISCARD;
}

void record_hit(xsdt_hdl &h, ProbeEntry &probe, const std::uint64_t *args,
                int argc) noexcept {
  ThreadBuffer *buffer = buffer_of_this_thread(h);
  if (!buffer) {
    count_drop(h.unbuffered_drops, probe);
    return;
  }
  if (buffer->busy.load(std::memory_order_relaxed)) {
    // This hit interrupted an append of the same thread to this buffer.
    count_drop(buffer->drops, probe);
    return;
  }
  buffer->busy.store(1, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  // Taken inside the busy section, so timestamps never decrease within a
  // buffer: a nested hit either completes before this point or is dropped.
  // The session's clock (record_clock.h): a counter the drain converts,
  // or CLOCK_MONOTONIC where there is none or a hit function reads it.
  const std::uint64_t now = h.timestamps ? h.clock.now() : 0;
  // The hit function runs inside the busy section too: its area is then
  // never written by two hits of the thread at once.
  if (h.hit_function && !run_hit_function(h, *buffer, probe, now, args, argc)) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    buffer->busy.store(0, std::memory_order_relaxed);
    return;
  }
  const bool stored = buffer->append(probe.desc.index, now, args, argc);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  buffer->busy.store(0, std::memory_order_relaxed);
  if (!stored)
    count_drop(buffer->drops, probe);
}

ProbeEntry *find_usdt_site(const xsdt_hdl &h, std::uintptr_t pc) noexcept {
  auto it = std::lower_bound(
      h.usdt_sites.begin(), h.usdt_sites.end(), pc,
      [](const UsdtSite &site, std::uintptr_t key) { return site.pc < key; });
  return it != h.usdt_sites.end() && it->pc == pc ? it->probe : nullptr;
}

// xsdt_enable patched every site of provider:name; sites outside this
// handle's selection (another module or function) are not recorded.
void record_usdt_hit(xsdt_hdl &h, const xsdt_probe_info *info, int argc,
                     const xsdt_arg *args) noexcept {
  if (ProbeEntry *probe = find_usdt_site(h, info->pc)) {
    std::uint64_t bits[XSDT_MAX_ARGS];
    const int n = std::clamp(argc, 0, XSDT_MAX_ARGS);
    for (int i = 0; i < n; ++i)
      bits[i] = args[i].bits;
    record_hit(h, *probe, bits, n);
  }
}

} // namespace

// The child of fork() is one thread with a new tid but the forking
// thread's TLS.
void forget_tid_after_fork() { t_tid = 0; }

std::uint64_t next_session() noexcept { return g_next_session.fetch_add(1); }

void on_sdt_hit(const xsdt_sdt_probe_info *info, const std::uint64_t *args,
                void *user) {
  auto *probe = static_cast<ProbeEntry *>(user);
  // The exact-id pattern can still match a second probe (an empty function
  // part matches any function): such hits are not ours.
  if (info && info->probe != probe->sdt_probe)
    return;
  xsdt_hdl &h = *probe->handle;
  if (!h.active.load(std::memory_order_acquire))
    return;
  record_hit(h, *probe, args, probe->record_argc);
}

// Signal context.
void on_usdt_hit(const xsdt_probe_info *info, int argc, const xsdt_arg *args,
                 void *user) {
  auto *gate = static_cast<UsdtGate *>(user);
  // A jump hit needs no in-flight count: xsdt_disable, which stop calls
  // after closing the gate, returns only once the jump sites' handlers
  // have returned (the runtime's slot protocol). Its two locked
  // read-modify-writes were 14 % of an xsdt-trace event.
  if (info->jumped) {
    if (gate->open.load(std::memory_order_acquire))
      record_usdt_hit(*gate->handle, info, argc, args);
    return;
  }
  gate->inflight.fetch_add(1, std::memory_order_seq_cst);
  if (gate->open.load(std::memory_order_seq_cst))
    record_usdt_hit(*gate->handle, info, argc, args);
  gate->inflight.fetch_sub(1, std::memory_order_release);
}

} // namespace xsdt::rt::consumer
