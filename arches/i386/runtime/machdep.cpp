// libxsdt machine-dependent part for i386.
#include "machdep.h"
#include "x86/runtime/tsc.h"

#include <cstddef>
#include <iterator>
#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_i386;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_i386); }

std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(static_cast<std::uint32_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.gregs[REG_EIP]));
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.gregs[REG_EIP] =
      static_cast<greg_t>(pc);
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const greg_t *g = static_cast<const ucontext_t *>(ucp)->uc_mcontext.gregs;
  // DWARF order of the i386 psABI. REG_ESP is the stack pointer at the
  // trap (the kernel and QEMU store it in both esp and esp_at_signal).
  static constexpr int kOrder[] = {REG_EAX, REG_ECX, REG_EDX, REG_EBX, REG_ESP,
                                   REG_EBP, REG_ESI, REG_EDI, REG_EIP};
  for (std::size_t i = 0; i < std::size(kOrder); ++i)
    regs->regs[i] = static_cast<std::uint32_t>(g[kOrder[i]]);
}

// x86 keeps instruction fetch coherent with stores.
void flush_icache(void *, std::size_t) {}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// The TSC, where it holds (x86/runtime/tsc.h).
const CycleCounter *cycle_counter() { return x86::tsc_counter(); }

} // namespace xsdt::rt::machdep
