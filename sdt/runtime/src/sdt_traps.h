// Private to libxsdt: the SDT part's trap tables, which tell the trap
// handler where a trap at an SDT site resumes. Separate from the fire path
// and the registry because it has its own readers (signal context) and its
// own rule for freeing what they may still hold.
#ifndef XSDT_RUNTIME_SDT_TRAPS_H
#define XSDT_RUNTIME_SDT_TRAPS_H

#include <cstdint>
#include <vector>

namespace xsdt::rt {

// A trap at `site` resumes at `resume`.
struct TrapEntry {
  std::uintptr_t site = 0;
  std::uintptr_t resume = 0;
};

// The hook of trap.cpp's trap handler (set_sdt_trap_hook): the pc to
// resume at after a trap at site, or 0 when the trap is not ours.
// Async-signal-safe.
std::uintptr_t resume_after_trap(std::uintptr_t site);

// Under api_lock(). Publishes traps at these sites (an entry for a site
// already present replaces it), and adds the sites to the history. Before
// any trap is written there. Sorts `add` in place. The tables' storage is
// kept and reused, so that a call with as many sites as the last one
// allocates nothing.
void add_traps(std::vector<TrapEntry> &add);

// Under api_lock(). Withdraws the traps at these sites: after they are gone
// from the code. Sorts `sites` in place.
void remove_traps(std::vector<std::uintptr_t> &sites);

// Under api_lock(). Removes these sites from the history: their object was
// unloaded, and code mapped there later must not be taken for ours.
void forget_trap_history(std::vector<std::uintptr_t> sites);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SDT_TRAPS_H
