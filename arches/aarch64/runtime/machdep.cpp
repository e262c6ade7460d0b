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

// The generic timer's virtual count, what the vDSO's clock reads too: one
// count for every CPU, at a fixed rate (1 GHz from ARMv8.6; 62.5 MHz under
// qemu-user, which the record clock finds too coarse and does not use).
static std::uint64_t read_cntvct() {
  std::uint64_t count;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(count));
  return count;
}
const CycleCounter *cycle_counter() {
  static const CycleCounter cntvct{"cntvct", read_cntvct};
  return &cntvct;
}

} // namespace xsdt::rt::machdep
