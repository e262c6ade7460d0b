// mips64el (MIPS64r2, n64 ABI, little-endian): what the generic code asks
// of this arch (xsdt/arch_port.h). The site, the trap, the j, the common
// register names, the operand grammar and the consumers' rules are MIPS's,
// shared with mipsel (arches/mips).
//
// Register numbers (DWARF): 0..31 $0..$31, 32..63 $f0..$f31.
#include "mips/mips.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

constexpr SiteEncoding kSiteEncodings[] = {{mips::kNop, mips::kTrap, "nop"}};

// n64 names $8..$11 a4..a7 (argument registers) and $12..$15 t0..t3.
const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    mips::add_common_registers(t, 64, 64);
    for (int n = 0; n < 4; ++n) {
      mips::add_register_name(t, ("a" + std::to_string(4 + n)).c_str(), 8 + n,
                              64);
      mips::add_register_name(t, ("t" + std::to_string(n)).c_str(), 12 + n, 64);
    }
    return t;
  }();
  return table;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_mips64el = {
    .name = "mips64el",
    .elf_machine = EM_MIPS,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // break reports its own pc
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0, // a raced trap reads as break 0: SIGTRAP
    .encode_jump = xsdt::mips::encode_jump,
    .decode_jump = xsdt::mips::decode_jump,
    .encode_jump_nop = nullptr,     // the same NOP at every site
    .jump_needs_trap_first = false, // one aligned word
    .register_prefix = "$",
    .registers = xsdt::registers,
    .parse_operand = xsdt::mips::parse_operand,
    .register_name_violation = nullptr,
    .memory_violation = nullptr,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::mips::kConsumerGrammar,
};
