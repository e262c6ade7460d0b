// libxsdt machine-dependent part for x86-64.
#include "machdep.h"
#include "x86/runtime/tsc.h"

#include <cstddef>
#include <iterator>
#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_x86_64;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_x86_64); }

std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.gregs[REG_RIP]);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.gregs[REG_RIP] =
      static_cast<greg_t>(pc);
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const greg_t *g = static_cast<const ucontext_t *>(ucp)->uc_mcontext.gregs;
  // DWARF order of the x86-64 psABI, which is not the ucontext order.
  static constexpr int kOrder[] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI,
                                   REG_RDI, REG_RBP, REG_RSP, REG_R8,  REG_R9,
                                   REG_R10, REG_R11, REG_R12, REG_R13, REG_R14,
                                   REG_R15, REG_RIP};
  for (std::size_t i = 0; i < std::size(kOrder); ++i)
    regs->regs[i] = static_cast<std::uint64_t>(g[kOrder[i]]);
}

// x86 keeps instruction fetch coherent with stores (self-modifying code is
// detected by the CPU; QEMU likewise invalidates translations on write).
void flush_icache(void *, std::size_t) {}

// The TSC, where it holds (x86/runtime/tsc.h).
const CycleCounter *cycle_counter() { return x86::tsc_counter(); }

} // namespace xsdt::rt::machdep
