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

// ---- Jump sites (SDT(9)); encodings in arches/<arch>/runtime/jump.h ------

// Size, alignment and NOP of an SDT site (the first SiteEncoding's NOP).
std::size_t jump_site_size();
std::size_t jump_site_align();
const unsigned char *jump_site_nop();

// The jump from site to target (jump_site_size() bytes); false when the
// target is out of the jump's reach.
bool encode_jump(std::uintptr_t site, std::uintptr_t target,
                 unsigned char *out);
bool decode_jump(std::uintptr_t site, const unsigned char *in,
                 std::uintptr_t *target);

// Whether replacing the NOP by the jump takes more than one atomic store
// (x86: 5 bytes), so that the int3-first protocol is needed.
bool jump_needs_trap_first();

// Makes every thread of the process execute a serializing instruction
// before returning (the cross-modifying-code steps of the x86 protocol).
// Returns false when the kernel offers no way to do it.
bool serialize_all_threads();

} // namespace xsdt::rt::machdep

#endif // XSDT_RUNTIME_MACHDEP_H
