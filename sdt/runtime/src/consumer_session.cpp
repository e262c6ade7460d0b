// The consumer's session, the libdtrace lifecycle over the SDT(9) runtime
// (<xsdt/sdt-runtime.h>) and the USDT trap runtime (<xsdt/runtime.h>):
// options, then xsdt_go() .. xsdt_stop() with the records drained by
// xsdt_work() and the per-probe counts. Separate from selection
// (consumer_select.cpp), which patches nothing, from the hit path
// (consumer_hits.cpp), which runs in signal context, and from the C entry
// points (consumer_api.cpp).
//
// Selection and patching are separate: xsdt_enable_probes() only resolves a
// description into probe entries (ids, types, USDT site addresses);
// xsdt_go() allocates every record buffer and then patches, all or nothing.
//
// Memory that a handler may still touch after xsdt_stop() returns is never
// freed:
//   * SDT: xsdt_sdt_disable() guarantees that no handler runs after it
//     returns, so the handle (whose probe entries are the handlers' `user`)
//     can be freed once every probe is disabled. If a disable fails, the
//     handle is leaked on close instead.
//   * USDT: the trap runtime may call a handler after xsdt_disable()
//     returned (a thread that trapped before the table changed). Its `user`
//     is a small UsdtGate that is never freed; the handler touches the
//     handle only after seeing the gate open, and stop waits until no
//     handler is between those two points.
#include "consumer_buffer.h"
#include "consumer_handle.h"
#include "consumer_hits.h"
#include "machdep.h"
#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <sched.h>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace xsdt::rt::consumer {
namespace {

// ---- API bodies (may throw std::bad_alloc; the C entry points catch it) -----

// "256k" -> 262144. Digits with an optional k or m suffix, nothing else.
bool parse_size(const char *text, std::uint64_t *out) {
  if (!text || !*text)
    return false;
  std::uint64_t value = 0;
  const char *p = text;
  for (; *p >= '0' && *p <= '9'; ++p) {
    if (value > (UINT64_MAX - 9) / 10)
      return false;
    value = value * 10 + static_cast<std::uint64_t>(*p - '0');
  }
  if (p == text)
    return false;
  std::uint64_t scale = 1;
  if (*p == 'k' || *p == 'K')
    scale = 1 << 10;
  else if (*p == 'm' || *p == 'M')
    scale = 1 << 20;
  if (scale != 1)
    ++p;
  if (*p != '\0' || value > UINT64_MAX / scale)
    return false;
  *out = value * scale;
  return true;
}

// A byte-count option (bufsize, hitarea): parse_size's form, within
// [min, max]; sets *field and its text, or fails naming the option.
int set_byte_count(xsdt_hdl *h, const char *name, const char *value,
                   std::uint64_t min, std::uint64_t max, std::uint64_t *field,
                   std::string *text) {
  const char *shown = value ? value : "(null)";
  std::uint64_t number = 0;
  if (!parse_size(value, &number))
    return fail(h, XSDT_ERR_BAD_OPTION,
                "xsdt_setopt: %s '%s' is not a byte count (digits with an "
                "optional k or m suffix)",
                name, shown);
  if (number < min || number > max)
    return fail(h, XSDT_ERR_BAD_OPTION,
                "xsdt_setopt: %s '%s' is out of range (%" PRIu64 " to %" PRIu64
                " bytes)",
                name, shown, min, max);
  *field = number;
  *text = std::to_string(number);
  return 0;
}

} // namespace

int setopt_impl(xsdt_hdl *h, const char *option, const char *value) {
  if (h->state != State::kConfiguring)
    return bad_state(h, "xsdt_setopt");
  const std::string_view name = option ? option : "";
  const char *shown = value ? value : "(null)";
  std::uint64_t number = 0;
  if (name == "bufsize")
    return set_byte_count(h, "bufsize", value, kMinBufsize, kMaxBufsize,
                          &h->bufsize, &h->bufsize_text);
  if (name == "nthreads") {
    // A count: no suffix.
    if (!parse_size(value, &number) || value[std::strlen(value) - 1] < '0' ||
        value[std::strlen(value) - 1] > '9')
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: nthreads '%s' is not a number", shown);
    if (number < 1 || number > kMaxThreads)
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: nthreads '%s' is out of range (1 to %" PRIu64
                  ")",
                  shown, kMaxThreads);
    h->nthreads = number;
    h->nthreads_text = std::to_string(number);
    return 0;
  }
  if (name == "hitarea")
    return set_byte_count(h, "hitarea", value, 0, kMaxHitArea, &h->hitarea,
                          &h->hitarea_text);
  if (name == "clock") {
    const std::string_view text = value ? value : "";
    if (text != "auto" && text != "monotonic")
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: clock '%s' is neither auto nor monotonic",
                  shown);
    h->clock_monotonic = text == "monotonic";
    return 0;
  }
  if (name == "timestamps") {
    const std::string_view text = value ? value : "";
    if (text != "on" && text != "off")
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: timestamps '%s' is neither on nor off", shown);
    h->timestamps = text == "on";
    return 0;
  }
  return fail(h, XSDT_ERR_BAD_OPTION,
              "xsdt_setopt: unknown option '%s' (known: bufsize, nthreads, "
              "hitarea, timestamps, clock)",
              option ? option : "(null)");
}

namespace {

// Disables everything this session enabled and waits for the handlers.
// Returns 0, or -1 with the handle's error set (the first failure; the
// other probes are still disabled).
int disable_session(xsdt_hdl *h, const char *call) {
  h->active.store(false, std::memory_order_seq_cst);
  if (h->gate)
    h->gate->open.store(false, std::memory_order_seq_cst);
  int result = 0;
  xsdt_error err{};
  for (ProbeEntry *probe : h->sdt_enabled) {
    // NOT_ENABLED: gone already (an earlier pattern of ours covered it).
    if (xsdt_sdt_disable(probe->enable_pattern.c_str(), &err) < 0 &&
        err.code != XSDT_ERR_NOT_ENABLED) {
      // Its handler may still run and reads the handle.
      h->keep_forever = true;
      if (result == 0)
        result = fail(h, err.code, "%s: disabling %s: %s", call,
                      probe->id.c_str(), err.message);
    }
  }
  h->sdt_enabled.clear();
  for (std::size_t i = 0; i < h->usdt_enabled; ++i) {
    const std::string &pattern = h->usdt_patterns[i];
    // A trap left in place only ever reaches the closed gate. A jump hit
    // counts itself in flight nowhere (on_usdt_hit): a failed disable of a
    // jump group may not have waited for it, so the handle must outlive
    // close, as for a failed SDT disable.
    if (xsdt_disable(pattern.c_str(), &err) < 0 &&
        err.code != XSDT_ERR_NOT_ENABLED) {
      if (h->usdt_pattern_jumps[i])
        h->keep_forever = true;
      if (result == 0)
        result = fail(h, err.code, "%s: disabling USDT probe %s: %s", call,
                      pattern.c_str(), err.message);
    }
  }
  h->usdt_enabled = 0;
  if (h->gate)
    while (h->gate->inflight.load(std::memory_order_seq_cst) != 0)
      sched_yield();
  return result;
}

} // namespace

int go_impl(xsdt_hdl *h) {
  if (h->state != State::kConfiguring)
    return bad_state(h, "xsdt_go");
  if (h->probes.empty())
    return fail(h, XSDT_ERR_BAD_STATE,
                "xsdt_go: no probe selected (call xsdt_enable_probes first)");
  // Whole 8-byte granules; every buffer is allocated now, none on a hit.
  const std::uint64_t capacity = h->bufsize & ~std::uint64_t{7};
  if (h->nthreads > SIZE_MAX / 4 / capacity)
    return fail(h, XSDT_ERR_BAD_OPTION,
                "xsdt_go: bufsize %" PRIu64 " x nthreads %" PRIu64
                " is more memory than this process can address",
                h->bufsize, h->nthreads);
  const std::size_t nbuffers = static_cast<std::size_t>(h->nthreads);
  const std::size_t words = nbuffers * static_cast<std::size_t>(capacity) / 8;
  // Value-initialised: the pages are touched here rather than on a hit.
  auto storage = std::make_unique<std::uint64_t[]>(words);
  auto buffers = std::make_unique<ThreadBuffer[]>(nbuffers);
  const std::size_t area_stride = static_cast<std::size_t>(
      (h->hitarea + kHitAreaAlign - 1) & ~std::uint64_t{kHitAreaAlign - 1});
  if (area_stride && nbuffers > SIZE_MAX / 4 / area_stride)
    return fail(h, XSDT_ERR_BAD_OPTION,
                "xsdt_go: hitarea %" PRIu64 " x nthreads %" PRIu64
                " is more memory than this process can address",
                h->hitarea, h->nthreads);
  std::unique_ptr<unsigned char, FreeMemory> areas;
  if (area_stride) {
    // calloc's memory is aligned for any type, 16 bytes on every arch here.
    areas.reset(
        static_cast<unsigned char *>(std::calloc(nbuffers, area_stride)));
    if (!areas)
      throw std::bad_alloc();
  }
  for (std::size_t i = 0; i < nbuffers; ++i)
    buffers[i].attach(reinterpret_cast<unsigned char *>(storage.get()) +
                          i * static_cast<std::size_t>(capacity),
                      static_cast<std::size_t>(capacity));

  std::vector<UsdtSite> usdt_sites;
  std::vector<std::string> usdt_patterns;
  std::vector<char> usdt_pattern_jumps;
  for (const auto &probe : h->probes) {
    probe->reset_count();
    if (probe->desc.kind != XSDT_PROBE_USDT)
      continue;
    for (std::uintptr_t pc : probe->sites)
      usdt_sites.push_back(UsdtSite{pc, probe.get()});
    const bool jump = probe->desc.mode == XSDT_MODE_JUMP;
    auto group = std::find(usdt_patterns.begin(), usdt_patterns.end(),
                           probe->enable_pattern);
    if (group == usdt_patterns.end()) {
      usdt_patterns.push_back(probe->enable_pattern);
      usdt_pattern_jumps.push_back(jump);
    } else if (!jump) {
      usdt_pattern_jumps[static_cast<std::size_t>(
          group - usdt_patterns.begin())] = false;
    }
  }
  std::sort(usdt_sites.begin(), usdt_sites.end(),
            [](const UsdtSite &a, const UsdtSite &b) { return a.pc < b.pc; });
  UsdtGate *gate = nullptr;
  if (!usdt_patterns.empty()) {
    gate = new UsdtGate; // never freed: see the file comment
    gate->handle = h;
  }
  h->sdt_enabled.reserve(h->probes.size());
  // Room for the buffers a failed rollback would have to keep.
  h->retired_storage.reserve(h->retired_storage.size() + 1);
  h->retired_buffers.reserve(h->retired_buffers.size() + 1);
  h->retired_areas.reserve(h->retired_areas.size() + 1);

  // The record clock: the arch's counter, unless the session asks for
  // CLOCK_MONOTONIC or a hit function reads the timestamp at the hit (in
  // nanoseconds: the conversion is the drain's).
  std::vector<std::uint64_t> last_timestamps(nbuffers, 0);
  h->clock.start(h->clock_monotonic || h->hit_function
                     ? nullptr
                     : xsdt::rt::machdep::cycle_counter());

  // Nothing below allocates until the session is published.
  h->last_timestamps = std::move(last_timestamps);
  h->storage = std::move(storage);
  h->buffers = std::move(buffers);
  h->nbuffers = nbuffers;
  h->areas = std::move(areas);
  h->area_stride = area_stride;
  h->usdt_sites = std::move(usdt_sites);
  h->usdt_patterns = std::move(usdt_patterns);
  h->usdt_pattern_jumps = std::move(usdt_pattern_jumps);
  h->gate = gate;
  h->unbuffered_drops.store(0);
  h->unbuffered_drops_reported = 0;
  h->session = next_session();
  h->active.store(true, std::memory_order_seq_cst);
  if (gate)
    gate->open.store(true, std::memory_order_seq_cst);

  // From here on nothing may throw: a probe enabled and then abandoned by
  // an exception would call into a freed handle.
  xsdt_error err{};
  const char *failed_kind = nullptr, *failed_probe = nullptr;
  for (const auto &probe : h->probes) {
    if (probe->desc.kind != XSDT_PROBE_SDT)
      continue;
    if (xsdt_sdt_enable(probe->enable_pattern.c_str(), probe->desc.mode,
                        xsdt::rt::consumer::on_sdt_hit, probe.get(),
                        &err) < 0) {
      failed_kind = "";
      failed_probe = probe->id.c_str();
      break;
    }
    h->sdt_enabled.push_back(probe.get()); // reserved: no allocation
  }
  if (!failed_probe)
    for (std::size_t i = 0; i < h->usdt_patterns.size(); ++i) {
      const std::string &pattern = h->usdt_patterns[i];
      if ((h->usdt_pattern_jumps[i] ? xsdt_enable_jump : xsdt_enable)(
              pattern.c_str(), xsdt::rt::consumer::on_usdt_hit, gate, &err) <
          0) {
        failed_kind = "USDT probe ";
        failed_probe = pattern.c_str();
        break;
      }
      ++h->usdt_enabled;
    }
  if (!failed_probe) {
    h->state = State::kRunning;
    return 0;
  }

  // All or nothing: undo this go, then report the failure that caused it.
  xsdt_error cause = err;
  int rollback = disable_session(h, "xsdt_go");
  if (h->keep_forever) {
    h->retired_storage.push_back(std::move(h->storage));
    h->retired_buffers.push_back(std::move(h->buffers));
    h->retired_areas.push_back(std::move(h->areas));
  }
  h->storage.reset();
  h->buffers.reset();
  h->areas.reset();
  h->nbuffers = 0;
  h->area_stride = 0;
  h->usdt_sites.clear();
  h->gate = nullptr;
  for (const auto &probe : h->probes)
    probe->reset_count();
  return fail(h, cause.code, "xsdt_go: enabling %s%s: %s%s", failed_kind,
              failed_probe, cause.message,
              rollback == 0 ? "" : " (and a probe could not be disabled)");
}

xsdt_workstatus work_impl(xsdt_hdl *h, xsdt_consume_f *consume, void *arg) {
  if (h->state == State::kConfiguring) {
    bad_state(h, "xsdt_work");
    return XSDT_WORKSTATUS_ERROR;
  }
  // Read first: once stopped, no producer writes, so drained means done.
  const bool stopped = h->state == State::kStopped;
  bool aborted = false;
  for (std::size_t i = 0; i < h->nbuffers && !aborted; ++i) {
    ThreadBuffer &buffer = h->buffers[i];
    xsdt_record record{};
    bool owner_read = false;
    aborted = !buffer.drain([&](std::uint32_t index, std::uint64_t timestamp,
                                const std::uint64_t *args, int argc) {
      ++h->probes[index]->consumed;
      if (!consume)
        return true;
      // Read once, after the first record it wrote: a buffer claimed
      // during this call has its owner set by then, and it does not change
      // while the buffer holds records.
      if (!owner_read) {
        record.tid = static_cast<std::uint64_t>(
            buffer.owner.load(std::memory_order_acquire));
        owner_read = true;
      }
      record.probe = &h->probes[index]->desc;
      if (h->timestamps) {
        // Never before the buffer's previous record.
        std::uint64_t &last = h->last_timestamps[i];
        last = std::max(last, h->clock.to_ns(timestamp));
        record.timestamp_ns = last;
      }
      // Arguments past argc read as 0, as after the previous record.
      if (argc < record.argc)
        std::fill(record.args + argc, record.args + record.argc, 0);
      record.argc = argc;
      std::copy(args, args + argc, record.args);
      return consume(&record, arg) == XSDT_CONSUME_NEXT;
    });
  }
  // Drops are reported whether or not the consumer aborted.
  for (std::size_t i = 0; i < h->nbuffers; ++i) {
    ThreadBuffer &buffer = h->buffers[i];
    const std::uint64_t drops = buffer.drops.load(std::memory_order_acquire);
    if (drops == buffer.drops_reported)
      continue;
    if (h->drop_handler)
      h->drop_handler(static_cast<std::uint64_t>(
                          buffer.owner.load(std::memory_order_relaxed)),
                      drops - buffer.drops_reported, h->drop_arg);
    buffer.drops_reported = drops;
  }
  const std::uint64_t unbuffered =
      h->unbuffered_drops.load(std::memory_order_relaxed);
  if (unbuffered != h->unbuffered_drops_reported) {
    if (h->drop_handler)
      h->drop_handler(0, unbuffered - h->unbuffered_drops_reported,
                      h->drop_arg);
    h->unbuffered_drops_reported = unbuffered;
  }
  // A program that replaced libxsdt's trap handler takes the trap-mode
  // hits (and, on some arches, the traps of jump writes): say so here,
  // where a consumer looks every period, rather than lose them silently.
  if (!stopped && std::any_of(h->probes.begin(), h->probes.end(),
                              [](const std::unique_ptr<ProbeEntry> &p) {
                                return p->desc.mode == XSDT_MODE_TRAP;
                              })) {
    xsdt_error trap_err{};
    if (xsdt_check_trap_handler(&trap_err) != 0) {
      fail(h, trap_err.code, "xsdt_work: trap-mode hits are lost: %s",
           trap_err.message);
      return XSDT_WORKSTATUS_ERROR;
    }
  }
  // Objects loaded since the last call without the headers' hook get the
  // enablings in force now; a failure to patch a late object (all or
  // nothing per object) is reported here, where a consumer looks.
  if (!stopped) {
    xsdt_error late{};
    if (xsdt_late_error(&late) != 0) {
      fail(h, late.code,
           "xsdt_work: an object loaded later was not patched: %s",
           late.message);
      return XSDT_WORKSTATUS_ERROR;
    }
  }
  if (aborted || !stopped)
    return XSDT_WORKSTATUS_OKAY;
  return XSDT_WORKSTATUS_DONE;
}

int stop_impl(xsdt_hdl *h) {
  if (h->state != State::kRunning)
    return bad_state(h, "xsdt_stop");
  h->state = State::kStopped;
  return disable_session(h, "xsdt_stop");
}

namespace {

// count() of every probe, by index: the hits drained, dropped, or still in
// a buffer (read without releasing them), as of this call.
std::vector<std::uint64_t> counts_of(const xsdt_hdl *h) {
  std::vector<std::uint64_t> counts;
  counts.reserve(h->probes.size());
  for (const auto &probe : h->probes)
    counts.push_back(probe->consumed +
                     probe->dropped.load(std::memory_order_relaxed));
  for (std::size_t i = 0; i < h->nbuffers; ++i)
    h->buffers[i].peek([&](std::uint32_t index) { ++counts[index]; });
  return counts;
}

} // namespace

int aggregate_walk_impl(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg) {
  if (h->state == State::kConfiguring)
    return bad_state(h, "xsdt_aggregate_walk");
  if (!visit)
    return fail(h, XSDT_ERR_INTERNAL,
                "xsdt_aggregate_walk: no visit function given");
  const std::vector<std::uint64_t> counts = counts_of(h);
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (visit(&h->probes[i]->desc, counts[i], arg) != 0)
      break;
  return 0;
}

int aggregate_print_impl(xsdt_hdl *h, FILE *out) {
  if (h->state == State::kConfiguring)
    return bad_state(h, "xsdt_aggregate_print");
  if (!out)
    return fail(h, XSDT_ERR_INTERNAL,
                "xsdt_aggregate_print: no output stream given");
  // One snapshot, so the order and the numbers printed agree.
  // Ties keep the enable order through the index. Not std::stable_sort: with
  // libstdc++ 12 it reaches the deprecated get_temporary_buffer, an error
  // under clang 19's -Werror.
  const std::vector<std::uint64_t> counts = counts_of(h);
  std::vector<std::tuple<std::uint64_t, std::size_t, const ProbeEntry *>> rows;
  for (std::size_t i = 0; i < counts.size(); ++i)
    rows.emplace_back(counts[i], i, h->probes[i].get());
  std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) > std::get<0>(b);
    return std::get<1>(a) < std::get<1>(b);
  });
  for (const auto &[count, index, probe] : rows)
    if (std::fprintf(out, "  %s  %" PRIu64 "\n", probe->id.c_str(), count) < 0)
      return fail(h, XSDT_ERR_INTERNAL, "xsdt_aggregate_print: write: %s",
                  std::strerror(errno));
  return 0;
}

int area_walk_impl(xsdt_hdl *h, xsdt_area_f *visit, void *arg) {
  if (h->state == State::kConfiguring)
    return bad_state(h, "xsdt_area_walk");
  if (!h->areas)
    return fail(h, XSDT_ERR_BAD_STATE,
                "xsdt_area_walk: the handle has no hit areas (hitarea 0)");
  if (!visit)
    return fail(h, XSDT_ERR_INTERNAL,
                "xsdt_area_walk: no visit function given");
  for (std::size_t i = 0; i < h->nbuffers; ++i) {
    // Acquire: the owner's claim comes before its first write to the area.
    const std::int32_t owner =
        h->buffers[i].owner.load(std::memory_order_acquire);
    if (owner != 0 && visit(static_cast<std::uint64_t>(owner),
                            h->areas.get() + i * h->area_stride, arg) != 0)
      break;
  }
  return 0;
}

std::uint64_t drops_impl(const xsdt_hdl *h) {
  std::uint64_t total = h->unbuffered_drops.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < h->nbuffers; ++i)
    total += h->buffers[i].drops.load(std::memory_order_relaxed);
  return total;
}

} // namespace xsdt::rt::consumer
