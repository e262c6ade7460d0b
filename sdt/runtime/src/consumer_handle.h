// Private to libxsdt: the consumer handle (struct xsdt_hdl of
// <xsdt/consumer.h>), the probe entries it selects, and how its calls report
// errors. Separate from the code that uses it because the consumer's files
// share it: the hit path (consumer_hits.cpp), selection
// (consumer_select.cpp), the session (consumer_session.cpp) and the C entry
// points (consumer_api.cpp).
//
// These types live in a named namespace, not an anonymous one: struct
// xsdt_hdl is global and has fields of them, which GCC's -Wsubobject-linkage
// rejects for types with internal linkage declared in a header.
#ifndef XSDT_RUNTIME_CONSUMER_HANDLE_H
#define XSDT_RUNTIME_CONSUMER_HANDLE_H

#include "api_guard.h"
#include "xsdt/consumer.h"

#include "consumer_buffer.h"

#include "atomic_count.h"
#include "record_clock.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace xsdt::rt::consumer {

// ---- Options -------------------------------------------------------------

inline constexpr std::uint64_t kDefaultBufsize = 64 << 10;
// A buffer must hold at least a few records (the largest is 112 bytes).
inline constexpr std::uint64_t kMinBufsize = 64;
inline constexpr std::uint64_t kMaxBufsize = 256 << 20;
inline constexpr std::uint64_t kDefaultThreads = 64;
inline constexpr std::uint64_t kMaxThreads = 4096;
inline constexpr std::uint64_t kMaxHitArea = 256 << 20;
inline constexpr std::size_t kHitAreaAlign = 16;

// ---- Probe entries ----------------------------------------------------------

struct ProbeEntry {
  xsdt_probedesc desc{};
  std::string id, provider, module, function, name;
  std::vector<std::string> native_types, translated_types;
  std::vector<const char *> native_ptrs, translated_ptrs;
  // Arguments a hit records: the definition's argc, or all of SDT's 7 for
  // an untyped SDT_PROBE_DEFINE (FreeBSD lets any SDT_PROBEn fire it).
  int record_argc = 0;
  // What xsdt_sdt_enable / xsdt_enable is given: the exact id (SDT) or
  // "provider:name" (USDT), glob characters escaped.
  std::string enable_pattern;
  const xsdt_sdt_probe *sdt_probe = nullptr; // SDT: the probe object
  std::vector<std::uintptr_t> sites;         // USDT: run-time pcs
  xsdt_hdl *handle = nullptr;
  // count() is consumed + dropped + the records still buffered: counted
  // where it is cheap rather than with a shared atomic add on every hit.
  std::uint64_t consumed = 0; // drained by xsdt_work (consumer)
  AtomicCount dropped{0};     // hits that were not recorded

  void reset_count() {
    consumed = 0;
    dropped.store(0, std::memory_order_relaxed);
  }

  void publish_desc(unsigned index) {
    native_ptrs.clear();
    translated_ptrs.clear();
    for (const std::string &t : native_types)
      native_ptrs.push_back(t.c_str());
    for (const std::string &t : translated_types)
      translated_ptrs.push_back(t.c_str());
    desc.index = index;
    desc.id = id.c_str();
    desc.provider = provider.c_str();
    desc.module = module.c_str();
    desc.function = function.c_str();
    desc.name = name.c_str();
    desc.native_types = native_ptrs.data();
    desc.translated_types = translated_ptrs.data();
  }
};

// The `user` of every USDT enable of one session. Never freed (see the file
// comment of consumer_session.cpp).
struct UsdtGate {
  std::atomic<bool> open{false};
  std::atomic<std::uint32_t> inflight{0};
  xsdt_hdl *handle = nullptr;
};

struct UsdtSite {
  std::uintptr_t pc;
  ProbeEntry *probe;
};

enum class State { kConfiguring, kRunning, kStopped };

// The hit areas come from calloc: their zero pages are mapped on first use,
// so that a large hitarea costs only what the threads that hit write.
struct FreeMemory {
  void operator()(unsigned char *p) const { std::free(p); }
};

} // namespace xsdt::rt::consumer

struct xsdt_hdl {
  xsdt::rt::consumer::State state = xsdt::rt::consumer::State::kConfiguring;

  // Options.
  std::uint64_t bufsize = xsdt::rt::consumer::kDefaultBufsize;
  std::uint64_t nthreads = xsdt::rt::consumer::kDefaultThreads;
  std::uint64_t hitarea = 0; // bytes per buffer for hit_function
  std::string bufsize_text, nthreads_text, hitarea_text; // for xsdt_getopt
  // Called at every hit with a buffer (xsdt_handle_hit). Read by the hit
  // path: set before go only.
  xsdt_hit_f *hit_function = nullptr;
  void *hit_arg = nullptr;
  // Read the clock on every hit. Read by the hit path: set before go only.
  bool timestamps = true;
  // "monotonic": CLOCK_MONOTONIC at every hit even where the arch has a
  // counter (option "clock"; "auto" otherwise).
  bool clock_monotonic = false;
  // The session's record clock (set up by go; read by the hit path) and,
  // per buffer, the last timestamp the drain gave out: its records stay in
  // order whatever the counter does.
  xsdt::rt::RecordClock clock;
  std::vector<std::uint64_t> last_timestamps;

  std::vector<std::unique_ptr<xsdt::rt::consumer::ProbeEntry>>
      probes; // by index

  // The session (go .. close). Read by the hit path.
  std::atomic<bool> active{false};
  std::uint64_t session = 0;
  std::unique_ptr<std::uint64_t[]> storage;
  std::unique_ptr<xsdt::rt::ThreadBuffer[]> buffers;
  std::size_t nbuffers = 0;
  // nbuffers hit areas of area_stride bytes (hitarea rounded up), one per
  // buffer; null when hitarea is 0.
  std::unique_ptr<unsigned char, xsdt::rt::consumer::FreeMemory> areas;
  std::size_t area_stride = 0;
  xsdt::rt::AtomicCount unbuffered_drops{0}; // threads without a buffer
  std::uint64_t unbuffered_drops_reported = 0;
  std::vector<xsdt::rt::consumer::UsdtSite> usdt_sites; // sorted by pc
  xsdt::rt::consumer::UsdtGate *gate = nullptr;         // leaked by design

  // What go enabled, for stop.
  std::vector<xsdt::rt::consumer::ProbeEntry *> sdt_enabled;
  std::vector<std::string> usdt_patterns; // "provider:name", one per group
  // Per group: enabled in jump mode (xsdt_enable_jump: every probe of the
  // group was selected in jump mode), else trap mode.
  std::vector<char> usdt_pattern_jumps;
  std::size_t usdt_enabled = 0; // the first ones are enabled
  // Set when an SDT disable failed: a handler may still run, so the handle
  // must outlive close.
  bool keep_forever = false;
  // Buffers of a go whose rollback could not disable everything.
  std::vector<std::unique_ptr<std::uint64_t[]>> retired_storage;
  std::vector<std::unique_ptr<xsdt::rt::ThreadBuffer[]>> retired_buffers;
  std::vector<std::unique_ptr<unsigned char, xsdt::rt::consumer::FreeMemory>>
      retired_areas;

  xsdt_drop_f *drop_handler = nullptr;
  void *drop_arg = nullptr;

  int last_error = XSDT_OK;
  std::string last_message;
};

namespace xsdt::rt::consumer {

// ---- Errors ----------------------------------------------------------------

// Records code and the formatted message as the handle's last error;
// returns -1, so that API bodies can `return fail(...)`.
int fail(xsdt_hdl *h, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

// The exception guard of the entry points that report through the handle
// (api_guard.h): on an exception, XSDT_ERR_INTERNAL "<call>: <why>" and -1.
template <class Body>
int guard_handle(xsdt_hdl *h, const char *call, Body &&body) noexcept {
  return guarded(body, [&](const char *why) {
    return fail(h, XSDT_ERR_INTERNAL, "%s: %s", call, why);
  });
}

// fail() with XSDT_ERR_BAD_STATE: `call` is not allowed in h's state.
int bad_state(xsdt_hdl *h, const char *call);

// ---- API bodies ------------------------------------------------------------
//
// What the C entry points (consumer_api.cpp) call inside their exception
// guards: each may throw std::bad_alloc.

// xsdt_enable_probes (consumer_select.cpp).
int enable_probes_impl(xsdt_hdl *h, const char *description, xsdt_mode mode);

// The session (consumer_session.cpp): xsdt_setopt, xsdt_go, xsdt_work,
// xsdt_stop, xsdt_aggregate_walk, xsdt_aggregate_print and xsdt_drops.
int setopt_impl(xsdt_hdl *h, const char *option, const char *value);
int go_impl(xsdt_hdl *h);
xsdt_workstatus work_impl(xsdt_hdl *h, xsdt_consume_f *consume, void *arg);
int stop_impl(xsdt_hdl *h);
int aggregate_walk_impl(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg);
int area_walk_impl(xsdt_hdl *h, xsdt_area_f *visit, void *arg);
int aggregate_print_impl(xsdt_hdl *h, FILE *out);
std::uint64_t drops_impl(const xsdt_hdl *h);

} // namespace xsdt::rt::consumer

#endif // XSDT_RUNTIME_CONSUMER_HANDLE_H
