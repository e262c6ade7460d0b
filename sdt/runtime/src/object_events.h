// Private to libxsdt: objects loaded and unloaded while probes are enabled.
// The probe headers' per-object constructor and destructor call
// xsdt_object_loaded / xsdt_object_unloading (the drti model); every API
// call (and the consumer's xsdt_work) also notices objects that came or
// went without them (sync_objects). Each part (USDT, SDT) registers a
// listener at its first enable and keeps an ObjectTracker of the objects
// it has seen. Failures while applying the enablings in force to a new
// object are kept here until xsdt_late_error() takes them.
#ifndef XSDT_RUNTIME_OBJECT_EVENTS_H
#define XSDT_RUNTIME_OBJECT_EVENTS_H

#include "xsdt/runtime.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace xsdt::rt {

// A loaded object: its load bias and dlpi_name ("" for the program).
struct ObjectKey {
  std::uintptr_t bias = 0;
  std::string name;
  auto operator<=>(const ObjectKey &) const = default;
};

// A loaded object and the address ranges of its PT_LOAD segments.
struct ObjectSpan {
  ObjectKey key;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  bool contains(std::uintptr_t address) const;
};

// Every loaded object (dl_iterate_phdr order). Allocates.
std::vector<ObjectSpan> loaded_spans();

// The span in `spans` holding address, or null.
const ObjectSpan *span_holding(const std::vector<ObjectSpan> &spans,
                               std::uintptr_t address);

// What a part has seen of the loaded objects. Under api_lock().
class ObjectTracker {
public:
  // Whether dl_iterate_phdr's load or unload counter moved since the last
  // call (true the first time and where the loader has no counters).
  bool changed();
  // The objects of `now` to apply the enablings in force to: those not seen
  // before, those in `reloaded`, and `fresh` (an object whose constructor
  // just ran); an object marked dying is skipped until it is gone. Then
  // `now` is what has been seen.
  std::vector<ObjectSpan> update(const std::vector<ObjectSpan> &now,
                                 const ObjectKey *fresh,
                                 const std::set<ObjectKey> &reloaded);
  // The object's destructor ran: it is being unloaded.
  void dying(const ObjectKey &key) { dying_.insert(key); }

private:
  bool counted_ = false;
  unsigned long long adds_ = 0, subs_ = 0;
  std::set<ObjectKey> seen_, dying_;
};

// A part's reaction to objects coming and going, called under api_lock().
struct ObjectListener {
  // Objects may have been loaded or unloaded; fresh: the object whose
  // constructor is running, or null.
  void (*sync)(const ObjectKey *fresh);
  // The object is about to be unmapped (its destructor runs).
  void (*unloading)(const ObjectSpan &object);
};

// Under api_lock(): adds the listener (once per listener).
void listen_for_objects(const ObjectListener *listener);

// Under api_lock(): lets every listener notice objects loaded or unloaded
// since the last call. Called by every API call and xsdt_work.
void sync_objects();

// Under api_lock(): a failure to apply the enablings in force to a late
// object (reported by xsdt_late_error; the first one's message is kept).
void note_late_error(const xsdt_error &err);

// Under api_lock(): the number of failures since the last call, and the
// first one in *err (XSDT_OK and "" when none). Clears them.
int take_late_errors(xsdt_error *err);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_OBJECT_EVENTS_H
