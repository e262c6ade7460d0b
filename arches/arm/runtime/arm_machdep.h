// libxsdt's machine-dependent functions for 32-bit ARM Linux, but the
// arch's descriptor: armhf's and armel's runtime/machdep.cpp each include
// this once and define machdep::arch(). Their signal contexts, traps and
// cache flush are the same; what differs is in the descriptors.
#ifndef XSDT_ARCHES_ARM_MACHDEP_H
#define XSDT_ARCHES_ARM_MACHDEP_H

#include "machdep.h"

#include <asm/unistd.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace xsdt::rt::machdep {

// glibc's arm sigcontext: arm_r0 .. arm_r10, arm_fp, arm_ip, arm_sp,
// arm_lr, arm_pc, contiguous, then arm_cpsr. The pc of a trap is its
// site's address, even in Thumb state. The cpsr's T bit is left alone: the
// thread resumes in the state it trapped in, where its site's out-of-line
// block and the instruction after the site are.
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
  const unsigned long *gprs = &m.arm_r0; // r0..r15 in order
  for (int i = 0; i <= 15; ++i)          // DWARF 0..15 are r0..r15
    regs->regs[i] = gprs[i];
}

// The instruction cache is not coherent with stores: the ARM-private
// cacheflush syscall (0xf0002, flags 0) cleans and invalidates the range for
// every core, as libgcc's __clear_cache does; the builtin is the fallback.
void flush_icache(void *addr, std::size_t n) {
  char *begin = static_cast<char *>(addr);
  if (syscall(__ARM_NR_cacheflush, begin, begin + n, 0) == 0)
    return;
  __builtin___clear_cache(begin, begin + n);
}

// No USDT jump mode yet: USDT sites trap.
const UsdtJumpPort *usdt_jump_port() { return nullptr; }

// Records read CLOCK_MONOTONIC: the generic timer (CNTVCT) is not readable from
// user space on every ARMv7 kernel, nor present on ARMv5.
const CycleCounter *cycle_counter() { return nullptr; }

} // namespace xsdt::rt::machdep

#endif // XSDT_ARCHES_ARM_MACHDEP_H
