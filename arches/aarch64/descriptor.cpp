// aarch64: what the generic code asks of this arch (xsdt/arch_port.h).
//
// Register numbers (DWARF, AArch64 DWARF ABI): 0..30 x0..x30, 31 sp;
// v0..v31 64..95.
#include "xsdt/arch_parts.h"
#include "xsdt/word_jump.h"

#include <array>
#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

// d503201f (nop) and d4200000 (brk #0), little-endian. NOP <-> BRK and
// NOP <-> B may be swapped with one aligned 32-bit store while other threads
// run (ARMv8 ARM B2.6.5, concurrent modification of the listed
// instructions).
constexpr unsigned char kNop[] = {0x1f, 0x20, 0x03, 0xd5};
constexpr unsigned char kBrk[] = {0x00, 0x00, 0x20, 0xd4};
constexpr SiteEncoding kSiteEncodings[] = {{kNop, kBrk, "nop"}};

// `b imm26` (+-128 MiB from the branch), one aligned 32-bit instruction in
// place of the nop: the offset / 4 in bits 25..0.
constexpr WordJumpForm kJump = {
    .pc_bias = 0,
    .alignment = 4,
    .offset_bits = 28,
    .fixed_mask = 0xfc000000u,
    .fixed_bits = 0x14000000u,
    .place = [](std::uint32_t offset) { return offset >> 2; },
    .take = [](std::uint32_t word) { return (word & 0x03ffffffu) << 2; },
    .layout = WordLayout::LittleEndian,
};

const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    for (int n = 0; n <= 30; ++n) {
      std::string x = "x" + std::to_string(n);
      detail::add_register(t, x, x, n, 0, 64);
      detail::add_register(t, "w" + std::to_string(n), x, n, 0, 32);
    }
    detail::add_register(t, "fp", "x29", 29, 0, 64);
    detail::add_register(t, "lr", "x30", 30, 0, 64);
    detail::add_register(t, "sp", "sp", 31, 0, 64);
    detail::add_register(t, "wsp", "sp", 31, 0, 32);
    detail::add_register(t, "xzr", "xzr", -1, 0, 64, RegisterClass::Zero);
    detail::add_register(t, "wzr", "xzr", -1, 0, 32, RegisterClass::Zero);
    static constexpr std::array<std::pair<char, int>, 6> kVector{
        {{'v', 128}, {'q', 128}, {'d', 64}, {'s', 32}, {'h', 16}, {'b', 8}}};
    for (int n = 0; n < 32; ++n)
      for (auto [prefix, width] : kVector)
        detail::add_register(t, prefix + std::to_string(n),
                             "v" + std::to_string(n), 64 + n, 0, width,
                             RegisterClass::Vector);
    return t;
  }();
  return table;
}

// libbpf reads x registers and sp by those names only.
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.bit_width == 32)
    return "32-bit register name " + reg.name +
           ": libbpf accepts only x registers and sp";
  if (reg.name != reg.full_name)
    return "register alias " + reg.name + ": libbpf accepts only " +
           reg.full_name;
  return std::nullopt;
}

std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "register offset " + loc.operand +
           ": libbpf and bcc reject index registers";
  return std::nullopt;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_aarch64 = {
    .name = "aarch64",
    .elf_machine = EM_AARCH64,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false, // w indexes are extended
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // brk reports its own pc
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = xsdt::encode_jump<xsdt::kJump>,
    .decode_jump = xsdt::decode_jump<xsdt::kJump>,
    .encode_jump_nop = nullptr,     // the same NOP at every site
    .jump_needs_trap_first = false, // one aligned 32-bit store
    .register_prefix = "",
    .registers = xsdt::registers,
    .parse_operand = xsdt::aarch64::parse_operand,
    .register_name_violation = xsdt::register_name_violation,
    .memory_violation = xsdt::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::aarch64::kConsumerGrammar,
};
