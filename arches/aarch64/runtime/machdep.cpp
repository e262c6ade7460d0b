// libxsdt machine-dependent part for AArch64.
#include "machdep.h"

#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_aarch64;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_aarch64); }

std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.pc);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.pc = pc;
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i <= 30; ++i)
    regs->regs[i] = m.regs[i];
  regs->regs[31] = m.sp; // DWARF 31 is sp
}

// The data and instruction caches are not coherent: clean to the point of
// unification and invalidate the icache (dc cvau / ic ivau), which the
// builtin does for the range.
void flush_icache(void *addr, std::size_t n) {
  char *p = static_cast<char *>(addr);
  __builtin___clear_cache(p, p + n);
}

// Records read CLOCK_MONOTONIC. cntvct_el0 would be the counter (the vDSO's
// own); not used yet: under qemu-user, where its runs are tested, it ticks
// at 62.5 MHz, too coarse for the bounds the consumer tests hold a record to.
const CycleCounter *cycle_counter() { return nullptr; }

} // namespace xsdt::rt::machdep
