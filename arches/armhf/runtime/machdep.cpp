// libxsdt machine-dependent part for armhf (Thumb-2).
#include "machdep.h"

#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_armhf;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_armhf); }

// glibc's arm sigcontext: arm_r0 .. arm_r10, arm_fp, arm_ip, arm_sp,
// arm_lr, arm_pc, contiguous, then arm_cpsr. The pc of a Thumb trap is
// even; the cpsr's T bit, which keeps the thread in Thumb state on return,
// is left alone.
std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.arm_pc);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.arm_pc =
      static_cast<unsigned long>(pc);
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i < kRegisterFileSize; ++i)
    regs->regs[i] = 0;
  const unsigned long *gprs = &m.arm_r0; // r0..r15 in order
  for (int i = 0; i <= 15; ++i)          // DWARF 0..15 are r0..r15
    regs->regs[i] = gprs[i];
}

// The instruction cache is not coherent with stores: libgcc's
// __clear_cache asks the kernel (the ARM-private cacheflush syscall,
// 0xf0002), which cleans and invalidates the range for every core.
void flush_icache(void *addr, std::size_t n) {
  char *begin = static_cast<char *>(addr);
  __builtin___clear_cache(begin, begin + n);
}

// NOP, b.w and the trap swap with one aligned 32-bit store: the
// trap-first protocol, which would need this, is not used here.
bool serialize_all_threads() { return true; }

} // namespace xsdt::rt::machdep
