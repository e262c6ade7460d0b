// ppc64el: what the generic code asks of this arch (xsdt/arch_port.h).
//
// Register numbers (DWARF, 64-bit ELF V2 ABI): 0..31 r0..r31, 32..63
// f0..f31.
#include "xsdt/arch_parts.h"
#include "xsdt/word_jump.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

// 60000000 (nop, ori 0,0,0) and 7fe00008 (trap, tw 31,0,0), little-endian.
// One aligned 32-bit store swaps NOP, b and trap while other threads run,
// as Linux patches its jump labels (arch/powerpc/kernel/jump_label.c).
// sys/sdt.h's site is the same nop.
constexpr unsigned char kNop[] = {0x00, 0x00, 0x00, 0x60};
constexpr unsigned char kTrap[] = {0x08, 0x00, 0xe0, 0x7f};
constexpr SiteEncoding kSiteEncodings[] = {{kNop, kTrap, "nop"}};

// `b target` (I-form, opcode 18, AA = LK = 0): LI is a 24-bit word offset,
// +-32 MiB, in bits 25..2.
constexpr WordJumpForm kJump = {
    .pc_bias = 0,
    .alignment = 4,
    .offset_bits = 26,
    .fixed_mask = 0xfc000003u,
    .fixed_bits = 0x48000000u,
    .place = [](std::uint32_t offset) { return offset & 0x03fffffcu; },
    .take = [](std::uint32_t word) { return word & 0x03fffffcu; },
    .layout = WordLayout::LittleEndian,
};

// A general register is written as its number, "3": that is how gcc and
// clang print it (without -mregnames) and all gdb reads. r3 and %r3 are
// aliases that the grammar reads.
const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    for (int n = 0; n < 32; ++n) {
      const std::string number = std::to_string(n);
      detail::add_register(t, number, number, n, 0, 64);
      detail::add_register(t, "r" + number, number, n, 0, 64);
    }
    for (int n = 0; n < 32; ++n)
      detail::add_register(t, "f" + std::to_string(n), "f" + std::to_string(n),
                           32 + n, 0, 64, RegisterClass::Vector);
    return t;
  }();
  return table;
}

// gdb reads a general register by its number only: "%r3" and "r3" fail
// there ("Invalid operator", ppc_stap_is_single_operand).
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.name != reg.full_name)
    return "register name " + reg.name + ": gdb reads only its number, " +
           reg.full_name;
  return std::nullopt;
}

// gdb stops at an index register (\"Invalid operator `,'\"), and bcc scales
// it by the argument's size; bcc reads a displacement only when it is
// written, 0(9) and not (9).
std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "indexed operand " + loc.operand +
           ": gdb reads no index register and bcc scales it";
  if (!loc.has_displacement)
    return loc.operand +
           " without a displacement: bcc requires one, such as 0(" +
           loc.base->full_name + ")";
  return std::nullopt;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_ppc64el = {
    .name = "ppc64el",
    .elf_machine = EM_PPC64,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // trap reports its own pc
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = xsdt::encode_jump<xsdt::kJump>,
    .decode_jump = xsdt::decode_jump<xsdt::kJump>,
    .encode_jump_nop = nullptr,     // the same NOP at every site
    .jump_needs_trap_first = false, // one aligned 32-bit store
    .register_prefix = "",
    .registers = xsdt::registers,
    .parse_operand = xsdt::ppc64el::parse_operand,
    .register_name_violation = xsdt::register_name_violation,
    .memory_violation = xsdt::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::ppc64el::kConsumerGrammar,
};
