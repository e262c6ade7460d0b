// The narrow per-architecture interface of libxsdt, in the manner of
// FreeBSD's sdt_machdep.c: what depends on the ucontext layout, the caches
// and the kernel lives in arches/<arch>/runtime/machdep.cpp, one small file
// per arch; the build compiles exactly one of them. The instruction-set
// facts (NOP, trap, jump) are the arch's descriptor's (isa.h).
#ifndef XSDT_RUNTIME_MACHDEP_H
#define XSDT_RUNTIME_MACHDEP_H

#include "xsdt/argeval.h"

#include <cstddef>
#include <cstdint>

namespace xsdt::rt::machdep {

// The arch this libxsdt is built for: its descriptor.
Arch arch();

// Reads and writes the interrupted pc of a signal's ucontext.
std::uintptr_t context_pc(const void *ucontext);
void set_context_pc(void *ucontext, std::uintptr_t pc);

// Writes the arch's registers into regs (each in the slot of its DWARF
// number, see argeval.h) from a signal's ucontext. The caller has zeroed
// regs: only the registers the arch's table names are written.
void fill_registers(const void *ucontext, RegisterFile *regs);

// Makes freshly written code at [addr, addr + n) visible to instruction
// fetch on every CPU.
void flush_icache(void *addr, std::size_t n);

// ---- USDT jump mode (usdt_jump.cpp). An arch that has it branches from a
// USDT site to a stub that libxsdt writes near the code at run time; the
// stub saves what the interrupted code may hold, calls
// xsdt_usdt_jump_hit(cell, regs) with the registers in a RegisterFile,
// restores everything and resumes after the site. An arch without it
// returns null and its USDT sites trap.
struct UsdtJumpPort {
  // Where in the arch's USDT site (its descriptor's usdt_site) the branch
  // goes: an instruction of the site that holds the SDT(9) jump site's NOP
  // (isa::first_encoding()), so that the SDT part's encoder writes it.
  std::size_t branch_offset;
  // The bytes of one site's stub, and the distance from the branch a stub
  // may be placed at (the branch's reach, on each side).
  std::size_t stub_size;
  std::uintptr_t reach;
  // The RegisterFile slots the stub fills (0 .. saved_registers - 1; the
  // hit zeroes the rest).
  int saved_registers;
  // Writes the stub for the site whose branch is at `branch` into `out`
  // (stub_size bytes), to run at address `at`: it passes `cell` to the hit
  // and resumes at `resume`. False when `at` is out of reach.
  bool (*write_stub)(unsigned char *out, std::uintptr_t at, const void *cell,
                     std::uintptr_t resume);
};
const UsdtJumpPort *usdt_jump_port();

// ---- Record timestamps (record_clock.cpp). A counter that a consumer's
// hits read instead of CLOCK_MONOTONIC: cheaper, at a constant rate and
// the same on every CPU, so that one conversion to CLOCK_MONOTONIC
// nanoseconds, when records are drained, holds for all of them. The rate
// need not be known: the conversion measures it.
struct CycleCounter {
  const char *name;        // what xsdt_getopt(h, "clock") reports
  std::uint64_t (*read)(); // async-signal-safe, no system call
};
// Null where the arch has none that holds on this system (decided once).
const CycleCounter *cycle_counter();

} // namespace xsdt::rt::machdep

#endif // XSDT_RUNTIME_MACHDEP_H
