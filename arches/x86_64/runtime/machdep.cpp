// libxsdt machine-dependent part for x86-64.
#include "machdep.h"

#include "jump.h"
#include "serialize.h"

#include <ucontext.h>

namespace xsdt::rt::machdep {
namespace {
// nopl 0(%rax,%rax,1): the one 5-byte instruction every xsdt site holds.
constexpr unsigned char kNop[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
// int3 over byte 0 only: a single-byte store is atomic with respect to
// instruction fetch, so a thread racing through the site sees either the
// whole NOP or the trap, and bytes 1..4 never execute (we resume after them).
constexpr unsigned char kTrap[] = {0xcc};
// sys/sdt.h's site: a 1-byte `nop`; int3 replaces it whole.
constexpr unsigned char kShortNop[] = {0x90};
constexpr SiteEncoding kEncodings[] = {
    {kNop, sizeof kNop, kTrap, sizeof kTrap, "5-byte nopl"},
    {kShortNop, sizeof kShortNop, kTrap, sizeof kTrap, "1-byte nop (sys/sdt.h)"},
};
} // namespace

Arch arch() { return Arch::X86_64; }
std::size_t site_encodings(const SiteEncoding **encodings) {
  *encodings = kEncodings;
  return sizeof kEncodings / sizeof kEncodings[0];
}

// The CPU reports the pc after the int3.
std::uintptr_t site_from_trap_pc(std::uintptr_t pc) { return pc - 1; }

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
  static constexpr int kOrder[17] = {
      REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
      REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
      REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
  for (int i = 0; i < kRegisterFileSize; ++i)
    regs->regs[i] = 0;
  for (int i = 0; i < 17; ++i)
    regs->regs[i] = static_cast<std::uint64_t>(g[kOrder[i]]);
}

// x86 keeps instruction fetch coherent with stores (self-modifying code is
// detected by the CPU; QEMU likewise invalidates translations on write).
void flush_icache(void *, std::size_t) {}


// ---- Jump sites ------------------------------------------------------------

std::size_t jump_site_size() { return arch_x86_64::kSiteSize; }
std::size_t jump_site_align() { return arch_x86_64::kSiteAlign; }
const unsigned char *jump_site_nop() { return arch_x86_64::kSiteNop; }

bool encode_jump(std::uintptr_t site, std::uintptr_t target,
                 unsigned char *out) {
  return arch_x86_64::encode_jump(site, target, out);
}

bool decode_jump(std::uintptr_t site, const unsigned char *in,
                 std::uintptr_t *target) {
  std::uint64_t t = 0;
  if (!arch_x86_64::decode_jump(site, in, &t))
    return false;
  *target = static_cast<std::uintptr_t>(t);
  return true;
}

// Five bytes cannot be stored atomically with respect to instruction fetch:
// a thread could execute half a NOP and half a jump.
bool jump_needs_trap_first() { return true; }

// The SYNC_CORE membarrier, shared by both x86 arches (serialize.h).
bool serialize_all_threads() { return x86::membarrier_sync_core(); }

} // namespace xsdt::rt::machdep
