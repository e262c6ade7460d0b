// mipsel (MIPS32r2, o32 ABI, little-endian): what the generic code asks
// of this arch (xsdt/arch_port.h). The site, the trap, the j, the common
// register names, the operand grammar and the consumers' rules are MIPS's,
// shared with mips64el (arches/mips).
//
// Register numbers (DWARF): 0..31 $0..$31, 32..63 $f0..$f31.
#include "mips/mips.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

constexpr SiteEncoding kSiteEncodings[] = {{mips::kNop, mips::kTrap, "nop"}};

// o32 names $8..$15 t0..t7. Its floating-point registers are 64 bits wide
// (FR=1 or a pair, -mfpxx); general registers 32.
const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    mips::add_common_registers(t, 32, 64);
    for (int n = 0; n < 8; ++n)
      mips::add_register_name(t, ("t" + std::to_string(n)).c_str(), 8 + n, 32);
    return t;
  }();
  return table;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_mipsel = {
    .name = "mipsel",
    .elf_machine = EM_MIPS,
    .elf64 = false,
    .word_bits = 32,
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
    .wide_register_value_reason =
        "a 64-bit value is in a register pair, and a spec names one register",
    .consumer_grammar = &xsdt::mips::kConsumerGrammar,
};
