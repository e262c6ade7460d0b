// Private to libxsdt: USDT jump mode's stubs and cells (usdt_jump.cpp).
// A USDT site enabled in jump mode branches to a stub of its own, written
// at run time near the code by the arch's port (machdep.h, UsdtJumpPort);
// the stub saves the registers and calls xsdt_usdt_jump_hit(cell, regs)
// (sdt_fire.cpp), which runs the site's record under the same in-flight
// protocol as an SDT hit, so that disable can wait for its handlers.
#ifndef XSDT_RUNTIME_USDT_JUMP_H
#define XSDT_RUNTIME_USDT_JUMP_H

#include "patch.h"
#include "trap_table.h"
#include "xsdt/argeval.h"
#include "xsdt/runtime.h"

#include <cstddef>
#include <cstdint>

namespace xsdt::rt {

// One per site ever enabled in jump mode; never freed (a thread may still
// be in its stub). The arches' entries read `pc` at this offset.
struct UsdtJumpCell {
  // The enabled site's record while enabled, else null: read once a hit's
  // thread is counted inside (sdt_fire.cpp).
  const void *armed = nullptr;
  // What a hit runs with the record and the saved registers.
  void (*run)(const void *armed, RegisterFile *regs) = nullptr;
  // The program counter a trap at the site would show, for its slot.
  std::uintptr_t pc = 0;
  std::uintptr_t site = 0;
  std::uintptr_t stub = 0;
};
inline constexpr std::size_t kUsdtJumpCellPcOffset = 16;

// Whether a USDT site holding `encoding` can jump in this libxsdt: the arch
// has a port and the site holds the arch's USDT site (usdt_site_encoding();
// on x86-64 not sys/sdt.h's one-byte nop, on aarch64 the same nop).
bool usdt_site_can_jump(const SiteEncoding *encoding);

// Under api_lock(): the site's cell, with its stub written (the first time)
// and its `run` set; null when no stub can be placed within the branch's
// reach or the threads cannot be serialized for a wide branch (the site
// then traps). May throw std::bad_alloc before it changes anything.
UsdtJumpCell *usdt_jump_cell(std::uintptr_t site,
                             void (*run)(const void *, RegisterFile *));

// The write that turns the site's branch instruction into the branch to its
// stub (`set`), or back into its NOP; `prot` the code's protection.
CodeWrite usdt_jump_write(const UsdtJumpCell &cell, bool set, int prot,
                          std::size_t tag);

// The trap table's entry for the branch instruction, which the trap-first
// protocol traps while it writes a wide branch: on to the stub.
TrapEntry usdt_jump_trap_entry(const UsdtJumpCell &cell);

// The RegisterFile slots a stub fills; a hit zeroes the others.
int usdt_jump_saved_registers();

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_USDT_JUMP_H
