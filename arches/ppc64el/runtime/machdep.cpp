// libxsdt machine-dependent part for 64-bit little-endian POWER.
#include "machdep.h"

#include "cache_blocks.h"

#include <ucontext.h>

extern const xsdt::ArchDescriptor xsdt_arch_ppc64el;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_ppc64el); }

// glibc's ppc64 mcontext: gp_regs[0..31] are r0..r31, gp_regs[32] the NIP
// (PT_NIP), the pc.
constexpr int kNip = 32;

std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.gp_regs[kNip]);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.gp_regs[kNip] = pc;
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i <= 31; ++i) // DWARF 0..31 are r0..r31
    regs->regs[i] = m.gp_regs[i];
}

// The instruction cache is not coherent with stores. Neither compiler's
// __builtin___clear_cache does anything here (gcc emits nothing, libgcc's
// __clear_cache is empty), so this is the Power ISA's sequence (Book II,
// 1.9 "Instruction storage", as Linux's flush_icache_range): store each
// data block, sync, invalidate each instruction block, sync, isync.
// 32 bytes is the smallest block of 64-bit POWER: a larger one is flushed
// more than once, never less.
void flush_icache(void *addr, std::size_t n) {
  constexpr std::uintptr_t kBlock = 32;
  const auto blocks =
      cache_blocks<kBlock>(reinterpret_cast<std::uintptr_t>(addr), n);
  for (std::uintptr_t p = blocks.first; p < blocks.end; p += kBlock)
    __asm__ volatile("dcbst 0,%0" : : "r"(p) : "memory");
  __asm__ volatile("sync" : : : "memory");
  for (std::uintptr_t p = blocks.first; p < blocks.end; p += kBlock)
    __asm__ volatile("icbi 0,%0" : : "r"(p) : "memory");
  __asm__ volatile("sync\n\tisync" : : : "memory");
}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// The time base, what the vDSO's clock reads too: one count for every CPU at
// a fixed rate (512 MHz on POWER8 and later).
static std::uint64_t read_time_base() {
  std::uint64_t count;
  __asm__ __volatile__("mftb %0" : "=r"(count));
  return count;
}
const CycleCounter *cycle_counter() {
  static const CycleCounter time_base{"mftb", read_time_base};
  return &time_base;
}

} // namespace xsdt::rt::machdep
