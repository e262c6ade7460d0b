// libxsdt machine-dependent part for RISC-V 64.
#include "machdep.h"

#include "jump.h"

#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

namespace xsdt::rt::machdep {
namespace {
// 00000013 (addi x0, x0, 0) and 00100073 (ebreak), little-endian. Sites are
// 4-byte aligned 4-byte NOPs (.option norvc), so one aligned store swaps
// them.
constexpr unsigned char kNop[] = {0x13, 0x00, 0x00, 0x00};
constexpr unsigned char kTrap[] = {0x73, 0x00, 0x10, 0x00};
// sys/sdt.h's site on rv64gc: the 2-byte `c.nop`, replaced by `c.ebreak`.
constexpr unsigned char kCompressedNop[] = {0x01, 0x00};
constexpr unsigned char kCompressedTrap[] = {0x02, 0x90};
constexpr SiteEncoding kEncodings[] = {
    {kNop, sizeof kNop, kTrap, sizeof kTrap, "4-byte nop"},
    {kCompressedNop, sizeof kCompressedNop, kCompressedTrap,
     sizeof kCompressedTrap, "2-byte c.nop (sys/sdt.h)"},
};
} // namespace

Arch arch() { return Arch::RiscV64; }
std::size_t site_encodings(const SiteEncoding **encodings) {
  *encodings = kEncodings;
  return sizeof kEncodings / sizeof kEncodings[0];
}

// ebreak reports the pc of the ebreak itself.
std::uintptr_t site_from_trap_pc(std::uintptr_t pc) { return pc; }

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
  for (int i = 0; i < kRegisterFileSize; ++i)
    regs->regs[i] = 0;
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


// ---- Jump sites ------------------------------------------------------------

std::size_t jump_site_size() { return arch_riscv64::kSiteSize; }
std::size_t jump_site_align() { return arch_riscv64::kSiteAlign; }
const unsigned char *jump_site_nop() { return arch_riscv64::kSiteNop; }

bool encode_jump(std::uintptr_t site, std::uintptr_t target,
                 unsigned char *out) {
  return arch_riscv64::encode_jump(site, target, out);
}

bool decode_jump(std::uintptr_t site, const unsigned char *in,
                 std::uintptr_t *target) {
  std::uint64_t t = 0;
  if (!arch_riscv64::decode_jump(site, in, &t))
    return false;
  *target = static_cast<std::uintptr_t>(t);
  return true;
}

// NOP, branch and trap swap with one aligned 32-bit store, which other
// threads observe whole (concurrent modification is architecturally
// allowed for these instructions); the icache flush is all that is needed.
bool jump_needs_trap_first() { return false; }
bool serialize_all_threads() { return true; }

} // namespace xsdt::rt::machdep
