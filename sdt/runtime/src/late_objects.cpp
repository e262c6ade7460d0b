// Objects loaded after an enable (late_objects.h).
#include "late_objects.h"

#include "trap_table.h"

#include <utility>

namespace xsdt::rt {

void LateObjects::start_listening() {
  if (listening_)
    return;
  tracker_.changed();
  tracker_.update(loaded_spans(), nullptr, {});
  listen_for_objects(listener_);
  listening_ = true;
}

void LateObjects::dying(const ObjectKey &key,
                        const std::vector<std::uintptr_t> &sites) {
  tracker_.dying(key);
  dying_sites_.insert(dying_sites_.end(), sites.begin(), sites.end());
}

void LateObjects::expire_dying_sites(const std::vector<ObjectSpan> &now,
                                     const ObjectKey *fresh) {
  std::vector<std::uintptr_t> dead;
  std::erase_if(dying_sites_, [&](std::uintptr_t site) {
    const ObjectSpan *s = span_holding(now, site);
    const bool is_dead = !s || (fresh && s->key == *fresh);
    if (is_dead)
      dead.push_back(site);
    return is_dead;
  });
  if (!dead.empty())
    forget_trap_history(std::move(dead));
}

} // namespace xsdt::rt
