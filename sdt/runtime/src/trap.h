// Private to libxsdt: the one trap handler (trap.cpp) that the USDT part
// (usdt.cpp) and the SDT part (sdt_enable.cpp) share. It asks the
// parts, in this order, whether a trap is theirs: an enabled USDT site
// (usdt_trap_hit), the SDT hook, then a USDT site disabled while the trap
// was being taken (usdt_trapped_before). Whatever no part claims goes to
// the disposition the handler replaced.
#ifndef XSDT_RUNTIME_TRAP_H
#define XSDT_RUNTIME_TRAP_H

#include "xsdt/runtime.h"

#include <cstdint>

namespace xsdt::rt {

// Installs the runtime's trap handler once; the previous disposition is
// kept for traps that are not ours. Returns 0, or -1 and fills err. Call
// with api_lock() held.
int install_sigtrap_handler(xsdt_error *err);

// Whether the installed handler of every trap signal is still ours (or
// none is installed yet): 0, or -1 with XSDT_ERR_SIGNAL naming the signal
// whose handler the program replaced. Call before writing a trap.
int check_trap_handler(xsdt_error *err);

// The SDT part's share of the trap handler: given the site a trap maps
// to, returns the pc to resume at, or 0 when the trap is not an SDT site's.
// Runs in signal context: lock-free, no allocation. Installed once, by the
// SDT part's first enable (before it writes any trap).
using SdtTrapHook = std::uintptr_t (*)(std::uintptr_t site);
void set_sdt_trap_hook(SdtTrapHook hook);

// ---- The USDT part's share, defined in usdt.cpp ---------------------------
// Both run in signal context, on the trapping thread: lock-free, no
// allocation.

// When site is an enabled USDT site: runs its handler with the arguments
// read from ucontext and returns the pc to resume at (past the site).
// Otherwise returns 0 and does nothing.
std::uintptr_t usdt_trap_hit(std::uintptr_t site, void *ucontext);

// Whether the USDT part ever wrote a trap at site: one that a concurrent
// disable removed after the trap was taken, so the site is re-executed.
bool usdt_trapped_before(std::uintptr_t site);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_TRAP_H
