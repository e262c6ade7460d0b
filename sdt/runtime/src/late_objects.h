// Private to libxsdt: objects loaded after an enable, as both parts (USDT
// and SDT) see them: one object tracker, one list of the trap sites of
// objects being unloaded, and one sync that decides which objects get the
// enablings in force (docs/runtime.md, "Objects loaded later"). What a
// part writes into a new object, and which of its records an unloaded or
// reloaded object takes with it, are the part's: it passes them in.
#ifndef XSDT_RUNTIME_LATE_OBJECTS_H
#define XSDT_RUNTIME_LATE_OBJECTS_H

#include "object_events.h"

#include <cstdint>
#include <set>
#include <vector>

namespace xsdt::rt {

// A part's view of the objects loaded after its first enable. Under
// api_lock(); a part keeps one for the life of the process.
class LateObjects {
public:
  explicit LateObjects(const ObjectListener *listener) : listener_(listener) {}

  // Before the part's first enable discovers: from then on the tracker
  // knows which objects the enablings were applied to, and the listener
  // hears of objects coming and going.
  void start_listening();

  // The listener's sync: when objects may have come or gone (or `fresh`,
  // whose constructor runs, is given), `forget(now)` drops the part's
  // records of objects gone or loaded again and returns the keys of those
  // loaded again; then, if `has_enablings()`, `apply(object)` runs for
  // every object that gets the enablings in force.
  template <class Forget, class HasEnablings, class Apply>
  void sync(const ObjectKey *fresh, Forget &&forget,
            HasEnablings &&has_enablings, Apply &&apply) {
    if (!tracker_.changed() && !fresh)
      return;
    const std::vector<ObjectSpan> now = loaded_spans();
    const std::set<ObjectKey> reloaded = forget(now);
    const std::vector<ObjectSpan> arrived =
        tracker_.update(now, fresh, reloaded);
    expire_dying_sites(now, fresh);
    if (arrived.empty() || !has_enablings())
      return;
    for (const ObjectSpan &object : arrived)
      apply(object);
  }

  // The object's destructor runs: it is skipped until it is gone, and the
  // sites the part trapped in it stay in the trap history until then (a
  // trap taken just before the NOP came back still finds them).
  void dying(const ObjectKey &key, const std::vector<std::uintptr_t> &sites);

private:
  // Dying sites whose object is gone (or `fresh`, loaded again at its
  // place) leave the trap history.
  void expire_dying_sites(const std::vector<ObjectSpan> &now,
                          const ObjectKey *fresh);

  const ObjectListener *listener_;
  bool listening_ = false;
  ObjectTracker tracker_;
  std::vector<std::uintptr_t> dying_sites_;
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_LATE_OBJECTS_H
