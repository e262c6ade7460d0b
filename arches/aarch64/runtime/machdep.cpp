// libxsdt machine-dependent part for AArch64.
#include "machdep.h"

#include "jump.h"

#include <ucontext.h>

namespace xsdt::rt::machdep {
namespace {
// d503201f (nop) and d4200000 (brk #0), little-endian. NOP <-> BRK may be
// swapped with one aligned 32-bit store while other threads run (ARMv8 ARM
// B2.6.5, concurrent modification of the listed instructions).
constexpr unsigned char kNop[] = {0x1f, 0x20, 0x03, 0xd5};
constexpr unsigned char kTrap[] = {0x00, 0x00, 0x20, 0xd4};
constexpr SiteEncoding kEncodings[] = {
    {kNop, sizeof kNop, kTrap, sizeof kTrap, "nop"},
};
} // namespace

Arch arch() { return Arch::AArch64; }
std::size_t site_encodings(const SiteEncoding **encodings) {
  *encodings = kEncodings;
  return sizeof kEncodings / sizeof kEncodings[0];
}

// brk reports the pc of the brk itself.
std::uintptr_t site_from_trap_pc(std::uintptr_t pc) { return pc; }

std::uintptr_t context_pc(const void *uc) {
  return static_cast<std::uintptr_t>(
      static_cast<const ucontext_t *>(uc)->uc_mcontext.pc);
}

void set_context_pc(void *uc, std::uintptr_t pc) {
  static_cast<ucontext_t *>(uc)->uc_mcontext.pc = pc;
}

void fill_registers(const void *ucp, RegisterFile *regs) {
  const auto &m = static_cast<const ucontext_t *>(ucp)->uc_mcontext;
  for (int i = 0; i < kRegisterFileSize; ++i)
    regs->regs[i] = 0;
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


// ---- Jump sites ------------------------------------------------------------

std::size_t jump_site_size() { return arch_aarch64::kSiteSize; }
std::size_t jump_site_align() { return arch_aarch64::kSiteAlign; }
const unsigned char *jump_site_nop() { return arch_aarch64::kSiteNop; }

bool encode_jump(std::uintptr_t site, std::uintptr_t target,
                 unsigned char *out) {
  return arch_aarch64::encode_jump(site, target, out);
}

bool decode_jump(std::uintptr_t site, const unsigned char *in,
                 std::uintptr_t *target) {
  std::uint64_t t = 0;
  if (!arch_aarch64::decode_jump(site, in, &t))
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
