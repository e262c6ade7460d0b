// Private to libxsdt: the one trap handler (trap.cpp) that the USDT part
// (usdt.cpp) and the SDT part (sdt_enable.cpp) share. A trap at a site of
// the trap table (trap_table.h), whichever part wrote it, runs what its
// entry says and resumes where it says; whatever the table does not know
// goes to the disposition the handler replaced.
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

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_TRAP_H
