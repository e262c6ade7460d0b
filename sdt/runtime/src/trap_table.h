// Private to libxsdt: the one table of the traps that libxsdt writes, for
// both parts (USDT probes in usdt.cpp, SDT probes in sdt_enable.cpp and
// sdt_registry.cpp), which tells the trap handler (trap.cpp) what a trap at
// a site runs and where it resumes. Separate from the parts because it has
// its own readers (signal context) and its own rule for freeing what they
// may still hold.
#ifndef XSDT_RUNTIME_TRAP_TABLE_H
#define XSDT_RUNTIME_TRAP_TABLE_H

#include <cstdint>
#include <vector>

namespace xsdt::rt {

// A trap at `site` runs hit(data, ucontext), when set, then resumes at
// `resume`. A USDT site's hit reads the arguments and runs the probe's
// handler, and it resumes past the site; an SDT site has no hit and
// resumes at its out-of-line block, which fires the probe (or, while a
// jump is being written, as the new instruction would).
struct TrapEntry {
  std::uintptr_t site = 0;
  std::uintptr_t resume = 0;
  void (*hit)(const void *data, void *ucontext) = nullptr;
  // Never freed while a handler may read it (the parts' records leak by
  // design).
  const void *data = nullptr;
};

// The entry of a trap at site: an entry of the table; or, for a site that
// once held one of our traps and no longer does (removed between the trap
// and this lookup), {site, site}: execute what the site holds now; or
// resume 0 when the trap is not ours. Async-signal-safe.
TrapEntry lookup_trap(std::uintptr_t site);

// Under api_lock(). Publishes traps at these sites (an entry for a site
// already present replaces it), and adds the sites to the history. Before
// any trap is written there. Sorts `add` in place. The tables' storage is
// kept and reused, so that a call with as many sites as the last one
// allocates nothing.
void add_traps(std::vector<TrapEntry> &add);

// Under api_lock(). Withdraws the traps at these sites: after they are gone
// from the code. Sorts `sites` in place.
void remove_traps(std::vector<std::uintptr_t> &sites);

// remove_traps, once the sites hold whole instructions again: out of
// memory, their entries stay in the table, where they are harmless (a site
// that holds a whole instruction does not trap; a later trap write
// replaces the entry).
void remove_traps_if_memory(std::vector<std::uintptr_t> &sites) noexcept;

// Under api_lock(). Removes these sites from the history: their object was
// unloaded, and code mapped there later must not be taken for ours.
void forget_trap_history(std::vector<std::uintptr_t> sites);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_TRAP_TABLE_H
