// i386: what the generic code asks of this arch (xsdt/arch_port.h). The
// encodings, the AT&T grammar and the legacy registers are x86's, shared
// with x86_64 (arches/x86).
//
// Register numbers (DWARF, i386 psABI): 0 eax 1 ecx 2 edx 3 ebx 4 esp
// 5 ebp 6 esi 7 edi 8 eip; xmm0..7 21..28.
#include "x86/x86.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    x86::add_legacy_registers(t, 32);
    detail::add_register(t, "eip", "eip", 8, 0, 32,
                         RegisterClass::ProgramCounter);
    for (int n = 0; n < 8; ++n) {
      std::string name = "xmm" + std::to_string(n);
      detail::add_register(t, name, name, 21 + n, 0, 128,
                           RegisterClass::Vector);
    }
    return t;
  }();
  return table;
}

// xsdt's site at every USDT and SDT(9) probe, the 5-byte NOP, and
// sys/sdt.h's 1-byte `nop`. The kernel optimizes no uprobe of a 32-bit
// program, and the i386 ABI has no red zone (docs/design.md, "Site").
constinit const SiteEncoding kSiteEncodings[] = {
    {x86::kNop5, x86::kInt3, x86::kNop5What},
    {x86::kNop1, x86::kInt3, x86::kNop1What},
};

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_i386 = {
    .name = "i386",
    .elf_machine = EM_386,
    .elf64 = false,
    .word_bits = 32,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false, // every address is 32-bit
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 1, // the trap-first protocol patches any alignment
    .trap_pc_offset = xsdt::x86::kTrapPcOffset,
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = xsdt::x86::encode_jump,
    .decode_jump = xsdt::x86::decode_jump,
    .encode_jump_nop = nullptr,    // the same NOP at every site
    .jump_needs_trap_first = true, // five bytes are not one atomic store
    .register_prefix = "%",
    .registers = xsdt::registers,
    .parse_operand = xsdt::x86::parse_operand,
    .register_name_violation = nullptr,
    .memory_violation = xsdt::x86::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason =
        "a register pair cannot be named by one register; pass it in memory",
    .consumer_grammar = &xsdt::x86::kConsumerGrammar32,
};
