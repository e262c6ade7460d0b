// libxsdt: objects loaded and unloaded after an enable (object_events.h).
// The entry points that the probe headers' per-object constructor and
// destructor call (xsdt_object_loaded, xsdt_object_unloading), the
// listeners of the two parts, the trackers' bookkeeping and the failures
// kept for xsdt_late_error(). It knows objects, not probes.
#include "object_events.h"

#include "api_guard.h"
#include "elf_file.h"
#include "errors.h"
#include "patch.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <mutex>

namespace xsdt::rt {
namespace {

// Never destroyed: destructors of objects run at exit, after static
// destruction may have begun.
std::vector<const ObjectListener *> &listeners() {
  static auto *v = new std::vector<const ObjectListener *>;
  return *v;
}
// Set once a part listens: until then the entry points return at once
// (they also run in every program's constructors, before main).
std::atomic<bool> g_listening{false};
// Set when the process exits. Every object's destructor runs then, and
// none is being unloaded: restoring its sites would only make exit write
// code and wait for the handlers of threads that are still running.
std::atomic<bool> g_exiting{false};
void mark_exiting() { g_exiting.store(true, std::memory_order_release); }

struct LateErrors {
  int count = 0;
  xsdt_error first{};
};
LateErrors &late_errors() {
  static auto *e = new LateErrors;
  return *e;
}

struct Counters {
  bool known = false;
  unsigned long long adds = 0, subs = 0;
};

int read_counters(dl_phdr_info *info, std::size_t size, void *data) {
  auto *c = static_cast<Counters *>(data);
  if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    c->known = true;
    c->adds = info->dlpi_adds;
    c->subs = info->dlpi_subs;
  }
  return 1;
}

} // namespace

bool ObjectSpan::contains(std::uintptr_t address) const {
  return std::any_of(ranges.begin(), ranges.end(), [&](const auto &r) {
    return address >= r.first && address < r.second;
  });
}

std::vector<ObjectSpan> loaded_spans() {
  std::vector<ObjectSpan> spans;
  for (const LoadedObject &object : loaded_objects()) {
    ObjectSpan span{ObjectKey{object.bias, object.name}, {}};
    for (const LoadSegment &s : object.segments)
      span.ranges.emplace_back(s.start, s.end);
    spans.push_back(std::move(span));
  }
  return spans;
}

const ObjectSpan *span_holding(const std::vector<ObjectSpan> &spans,
                               std::uintptr_t address) {
  for (const ObjectSpan &s : spans)
    if (s.contains(address))
      return &s;
  return nullptr;
}

bool ObjectTracker::changed() {
  Counters now;
  dl_iterate_phdr(read_counters, &now);
  bool moved =
      !counted_ || !now.known || now.adds != adds_ || now.subs != subs_;
  counted_ = true;
  adds_ = now.adds;
  subs_ = now.subs;
  return moved;
}

std::vector<ObjectSpan>
ObjectTracker::update(const std::vector<ObjectSpan> &now,
                      const ObjectKey *fresh,
                      const std::set<ObjectKey> &reloaded) {
  std::vector<ObjectSpan> add;
  std::set<ObjectKey> present, seen;
  for (const ObjectSpan &s : now) {
    present.insert(s.key);
    const bool is_fresh = fresh && s.key == *fresh;
    if (is_fresh)
      dying_.erase(s.key); // its successor's constructor runs: it is gone
    if (dying_.count(s.key))
      continue;
    seen.insert(s.key);
    if (is_fresh || reloaded.count(s.key) || !seen_.count(s.key))
      add.push_back(s);
  }
  std::erase_if(dying_, [&](const ObjectKey &k) { return !present.count(k); });
  seen_ = std::move(seen);
  return add;
}

void listen_for_objects(const ObjectListener *listener) {
  std::vector<const ObjectListener *> &v = listeners();
  if (std::find(v.begin(), v.end(), listener) == v.end())
    v.push_back(listener);
  // Registered after libc's own exit handler (the one that runs the
  // objects' destructors), so it runs before it.
  static const bool at_exit = std::atexit(mark_exiting) == 0;
  (void)at_exit;
  g_listening.store(true, std::memory_order_release);
}

void sync_objects() {
  for (const ObjectListener *l : listeners())
    l->sync(nullptr);
}

void note_late_error(const xsdt_error &err) {
  LateErrors &e = late_errors();
  if (e.count++ == 0)
    e.first = err;
}

int take_late_errors(xsdt_error *err) {
  LateErrors &e = late_errors();
  int n = e.count;
  if (err)
    *err = e.first;
  e = LateErrors{};
  return n;
}

} // namespace xsdt::rt

// ---- C entry points --------------------------------------------------------

namespace {

// The object holding anchor, if it is a loaded object.
bool object_of(const void *anchor, xsdt::rt::ObjectSpan *out) {
  std::vector<xsdt::rt::ObjectSpan> spans = xsdt::rt::loaded_spans();
  const xsdt::rt::ObjectSpan *s =
      xsdt::rt::span_holding(spans, reinterpret_cast<std::uintptr_t>(anchor));
  if (!s)
    return false;
  *out = *s;
  return true;
}

// A failure inside a hook has no caller to return it to.
void keep_failure(const char *what) {
  xsdt_error err;
  xsdt::rt::fail(&err, XSDT_ERR_INTERNAL, "%s", what);
  xsdt::rt::note_late_error(err);
}

} // namespace

extern "C" {

void xsdt_object_loaded(const void *anchor) {
  using namespace xsdt::rt;
  if (!g_listening.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> guard(api_lock());
  try {
    ObjectSpan object;
    const bool known = object_of(anchor, &object);
    for (const ObjectListener *l : listeners())
      l->sync(known ? &object.key : nullptr);
  } catch (const std::exception &e) {
    keep_failure(e.what());
  } catch (...) {
    keep_failure("xsdt_object_loaded: unknown exception");
  }
}

void xsdt_object_unloading(const void *anchor) {
  using namespace xsdt::rt;
  if (!g_listening.load(std::memory_order_acquire) ||
      g_exiting.load(std::memory_order_acquire))
    return;
  std::lock_guard<std::mutex> guard(api_lock());
  try {
    ObjectSpan object;
    if (!object_of(anchor, &object))
      return;
    for (const ObjectListener *l : listeners())
      l->unloading(object);
  } catch (const std::exception &e) {
    keep_failure(e.what());
  } catch (...) {
    keep_failure("xsdt_object_unloading: unknown exception");
  }
}

int xsdt_late_error(xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_late_error", [&] {
    std::lock_guard<std::mutex> guard(xsdt::rt::api_lock());
    xsdt::rt::sync_objects();
    return xsdt::rt::take_late_errors(err);
  });
}

} // extern "C"
