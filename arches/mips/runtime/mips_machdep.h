// libxsdt's machine-dependent functions for MIPS Linux, but the arch's
// descriptor: mips64el's and mipsel's runtime/machdep.cpp each include this
// once and define machdep::arch(). glibc gives both ABIs the same signal
// context (64-bit greg_t, pc), the trap and the cacheflush syscall are the
// same; the syscall's number is each ABI's (<asm/unistd.h>).
#ifndef XSDT_ARCHES_MIPS_MACHDEP_H
#define XSDT_ARCHES_MIPS_MACHDEP_H

#include "machdep.h"

#include <asm/cachectl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace xsdt::rt::machdep {

// A break reports its own pc (never in a delay slot: the sites are under
// .set noreorder, docs/porting.md).
std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.pc);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.pc = pc;
}

// gregs[0..31] are $0..$31, DWARF 0..31, 64 bits wide in both ABIs (o32's
// registers are 32 bits: the low half, sign-extended).
void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i <= 31; ++i)
    regs->regs[i] = static_cast<std::uint64_t>(m.gregs[i]);
}

// The instruction cache is not coherent with stores: the cacheflush syscall
// (BCACHE) writes back the data cache and invalidates the instruction cache
// for the range on every core, as Linux's flush_icache_range does for its
// jump labels; the builtin (synci on MIPS32r2/MIPS64r2) is the fallback.
void flush_icache(void *addr, std::size_t n) {
  char *begin = static_cast<char *>(addr);
  if (syscall(__NR_cacheflush, begin, n, BCACHE) == 0)
    return;
  __builtin___clear_cache(begin, begin + n);
}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// Records read CLOCK_MONOTONIC: the CP0 count register (rdhwr $2) is
// readable from user space only where the kernel allows it, and may trap.
const CycleCounter *cycle_counter() { return nullptr; }

} // namespace xsdt::rt::machdep

#endif // XSDT_ARCHES_MIPS_MACHDEP_H
