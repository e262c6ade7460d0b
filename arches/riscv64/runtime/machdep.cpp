// libxsdt machine-dependent part for RISC-V 64.
#include "machdep.h"

#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

extern const xsdt::ArchDescriptor xsdt_arch_riscv64;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_riscv64); }

// glibc's riscv mcontext: __gregs[0] is the pc, __gregs[1..31] are x1..x31.
std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.__gregs[0]);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.__gregs[0] = pc;
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  // x0 is hard-wired zero; slot 0 of __gregs holds the pc instead.
  for (int i = 1; i <= 31; ++i)
    regs->regs[i] = m.__gregs[i];
}

// fence.i only affects the calling hart; the kernel's riscv_flush_icache
// (nr 259, flags 0 = all threads) makes the store visible to every hart.
// Its failure (e.g. ENOSYS on an old emulator) leaves the builtin, which
// calls the same syscall through libgcc or at least fences this hart.
void flush_icache(void *addr, std::size_t n) {
  char *p = static_cast<char *>(addr);
#ifdef __NR_riscv_flush_icache
  if (syscall(__NR_riscv_flush_icache, p, p + n, 0UL) == 0)
    return;
#endif
  __builtin___clear_cache(p, p + n);
}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// The time CSR, what the vDSO's clock reads too: one count for the whole
// system at the platform's timebase (a few MHz on some boards, which the
// record clock finds too coarse and does not use).
static std::uint64_t read_time() {
  std::uint64_t count;
  __asm__ __volatile__("rdtime %0" : "=r"(count));
  return count;
}
const CycleCounter *cycle_counter() {
  static const CycleCounter time{"rdtime", read_time};
  return &time;
}

} // namespace xsdt::rt::machdep
