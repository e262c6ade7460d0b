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

} // namespace xsdt::rt::machdep

#endif // XSDT_RUNTIME_MACHDEP_H
