// The narrow per-architecture interface of libxsdt, in the manner of
// FreeBSD's sdt_machdep.c: everything that depends on the instruction set or
// on the ucontext layout lives in arches/<arch>/runtime/machdep.cpp, one
// small file per arch; the build compiles exactly one of them.
#ifndef XSDT_RUNTIME_MACHDEP_H
#define XSDT_RUNTIME_MACHDEP_H

#include "xsdt/argeval.h"

#include <cstddef>
#include <cstdint>

namespace xsdt::rt::machdep {

// The arch whose specs the notes of this process use.
Arch arch();

// One way a disabled site can look, and the trap written over its head. On
// x86 the trap is one byte (int3) and the rest of the NOP stays in place.
struct SiteEncoding {
  const unsigned char *nop;
  std::size_t size;
  const unsigned char *trap;
  std::size_t trap_size;
  const char *what; // for error messages
};

// The encodings trap mode accepts: xsdt's patch-width NOP first, then the
// NOPs other SDT implementations leave (sys/sdt.h: a 1-byte `nop` on x86,
// a 2-byte `c.nop` on riscv with RVC), which a trap fits as well, so that
// "*:*" also enables the probes of libc or libstdc++. Jump patching needs
// the first one.
std::size_t site_encodings(const SiteEncoding **encodings);

// The site address for the pc the SIGTRAP handler sees (x86: one past the
// int3; aarch64 and riscv64: the trap itself).
std::uintptr_t site_from_trap_pc(std::uintptr_t pc);

// Reads and writes the interrupted pc of a signal's ucontext.
std::uintptr_t context_pc(const void *ucontext);
void set_context_pc(void *ucontext, std::uintptr_t pc);

// Fills regs (DWARF numbering, see argeval.h) from a signal's ucontext.
void fill_registers(const void *ucontext, RegisterFile *regs);

// Makes freshly written code at [addr, addr + n) visible to instruction
// fetch on every CPU.
void flush_icache(void *addr, std::size_t n);

} // namespace xsdt::rt::machdep

#endif // XSDT_RUNTIME_MACHDEP_H
