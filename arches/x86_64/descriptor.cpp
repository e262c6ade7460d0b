// x86_64: what the generic code asks of this arch (xsdt/arch_port.h). The
// encodings, the AT&T grammar and the legacy registers are x86's, shared
// with i386 (arches/x86).
//
// Register numbers (DWARF, x86-64 psABI): 0 rax 1 rdx 2 rcx 3 rbx 4 rsi
// 5 rdi 6 rbp 7 rsp 8..15 r8..r15 16 rip; xmm0..15 17..32, xmm16..31 67..82.
#include "x86/x86.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    x86::add_legacy_registers(t, 64);
    for (int n = 8; n <= 15; ++n) {
      std::string full = "r" + std::to_string(n);
      detail::add_register(t, full, full, n, 0, 64);
      detail::add_register(t, full + "d", full, n, 0, 32);
      detail::add_register(t, full + "w", full, n, 0, 16);
      detail::add_register(t, full + "b", full, n, 0, 8);
      detail::add_register(t, full + "l", full, n, 0, 8); // gdb's r8b
    }
    detail::add_register(t, "rip", "rip", 16, 0, 64,
                         RegisterClass::ProgramCounter);
    detail::add_register(t, "eip", "rip", 16, 0, 32,
                         RegisterClass::ProgramCounter);
    for (int n = 0; n < 32; ++n) {
      std::string name = "xmm" + std::to_string(n);
      detail::add_register(t, name, name, n < 16 ? 17 + n : 67 + (n - 16), 0,
                           128, RegisterClass::Vector);
    }
    return t;
  }();
  return table;
}

// r8l..r15l: gdb's spelling, which libbpf does not know.
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.name.size() > 2 && reg.name[0] == 'r' && reg.name.back() == 'l')
    return "byte register %" + reg.name + ": libbpf knows it only as %" +
           reg.full_name + "b";
  return std::nullopt;
}

// The 10-byte `nopw %cs:0(%rax,%rax,1)`: an SDT(9) jump site, and the
// tail of a USDT site (arch/usdt.h says why).
constexpr unsigned char kNop10[] = {0x66, 0x2e, 0x0f, 0x1f, 0x84,
                                    0x00, 0x00, 0x00, 0x00, 0x00};
constexpr unsigned char kUsdtSite[] = {0x90, 0x66, 0x2e, 0x0f, 0x1f, 0x84,
                                       0x00, 0x00, 0x00, 0x00, 0x00};

// [0] the SDT(9) jump site; [1] the USDT site, whose note points at its
// `nop`; [2] the bare 5-byte NOP of xsdt's earlier USDT and SDT sites
// (and of other libraries), which trap mode still patches but a kernel
// tracer must not meet at a note; [3] sys/sdt.h's `nop`.
constinit const SiteEncoding kSiteEncodings[] = {
    {kNop10, x86::kInt3, "10-byte nopw"},
    {kUsdtSite, x86::kInt3, "nop; 10-byte nopw"},
    {x86::kNop5, x86::kInt3, x86::kNop5What, nullptr,
     "Linux 6.18 turns a uprobe on a bare 5-byte NOP into a call that "
     "pushes its return address into the red zone, where leaf functions "
     "keep data"},
    {x86::kNop1, x86::kInt3, x86::kNop1What},
};

// `e9 rel32` over the 10-byte NOP's first 5 bytes; the other 5 keep the
// NOP's, so a write changes only the jump's bytes.
bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  if (!x86::encode_jump(site, target, out))
    return false;
  for (std::size_t i = x86::kJumpSize; i < sizeof kNop10; ++i)
    out[i] = kNop10[i];
  return true;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_x86_64 = {
    .name = "x86_64",
    .elf_machine = EM_X86_64,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = true, // the 0x67 prefix
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 1, // the trap-first protocol patches any alignment
    .trap_pc_offset = xsdt::x86::kTrapPcOffset,
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = xsdt::encode_jump,
    .decode_jump = xsdt::x86::decode_jump,
    .encode_jump_nop = nullptr,    // the same NOP at every site
    .jump_needs_trap_first = true, // five bytes are not one atomic store
    .register_prefix = "%",
    .registers = xsdt::registers,
    .parse_operand = xsdt::x86::parse_operand,
    .register_name_violation = xsdt::register_name_violation,
    .memory_violation = xsdt::x86::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::x86::kConsumerGrammar64,
    .usdt_site = &xsdt::kSiteEncodings[1],
};
