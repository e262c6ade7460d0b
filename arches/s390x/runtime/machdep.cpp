// libxsdt machine-dependent part for s390x.
#include "machdep.h"

#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_s390x;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_s390x); }

// glibc's s390x mcontext: psw {mask, addr}, gregs[0..15] = r0..r15. After
// the trap (0x0001, an illegal operation) the kernel and QEMU report the
// address after it in psw.addr (descriptor: trap_pc_offset).
std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.psw.addr);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.psw.addr = pc;
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i <= 15; ++i) // DWARF 0..15 are r0..r15
    regs->regs[i] = m.gregs[i];
}

// Instruction fetch sees stores on s390 ("caches aren't brain-dead on the
// s390", Linux's asm/cacheflush.h): nothing to flush.
void flush_icache(void *, std::size_t) {}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// The TOD clock (STORE CLOCK FAST), what the vDSO's clock reads too: one for
// the machine, bit 51 a microsecond.
static std::uint64_t read_tod() {
  std::uint64_t count;
  __asm__ __volatile__("stckf %0" : "=Q"(count) : : "cc");
  return count;
}
const CycleCounter *cycle_counter() {
  static const CycleCounter tod{"stckf", read_tod};
  return &tod;
}

} // namespace xsdt::rt::machdep
