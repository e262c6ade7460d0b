// riscv64: what the generic code asks of this arch (xsdt/arch_port.h).
//
// Register numbers (DWARF, RISC-V ELF psABI): 0..31 x0..x31 (x0 is zero),
// f0..f31 32..63.
#include "xsdt/arch_parts.h"
#include "xsdt/word_jump.h"

#include <array>
#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

// 00000013 (addi x0, x0, 0) and 00100073 (ebreak), little-endian: xsdt's
// sites are 4-byte aligned 4-byte NOPs (.option norvc), so one aligned
// store swaps them. sys/sdt.h's site on rv64gc is the 2-byte c.nop, which
// c.ebreak replaces.
constexpr unsigned char kNop[] = {0x13, 0x00, 0x00, 0x00};
constexpr unsigned char kEbreak[] = {0x73, 0x00, 0x10, 0x00};
constexpr unsigned char kCompressedNop[] = {0x01, 0x00};
constexpr unsigned char kCompressedEbreak[] = {0x02, 0x90};
constexpr SiteEncoding kSiteEncodings[] = {
    {kNop, kEbreak, "4-byte nop"},
    {kCompressedNop, kCompressedEbreak, "2-byte c.nop (sys/sdt.h)"},
};

// `jal x0, off` (+-1 MiB), one aligned 32-bit instruction in place of the
// nop. J-type immediate: imm[20|10:1|11|19:12] in bits 31|30:21|20|19:12.
constexpr WordJumpForm kJump = {
    .pc_bias = 0,
    .alignment = 2,
    .offset_bits = 21,
    .fixed_mask = 0xfffu, // opcode jal, rd = x0
    .fixed_bits = 0x06fu,
    .place =
        [](std::uint32_t imm) {
          return ((imm >> 20) & 1u) << 31 | ((imm >> 1) & 0x3ffu) << 21 |
                 ((imm >> 11) & 1u) << 20 | ((imm >> 12) & 0xffu) << 12;
        },
    .take =
        [](std::uint32_t word) {
          return ((word >> 31) & 1u) << 20 | ((word >> 21) & 0x3ffu) << 1 |
                 ((word >> 20) & 1u) << 11 | ((word >> 12) & 0xffu) << 12;
        },
    .layout = WordLayout::LittleEndian,
};

const std::vector<RegisterInfo> &registers() {
  static constexpr std::array<const char *, 32> kAbi{
      "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
      "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static constexpr std::array<const char *, 32> kFpAbi{
      "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
      "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
      "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
      "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    for (int n = 0; n < 32; ++n) {
      RegisterClass cls = n == 0 ? RegisterClass::Zero : RegisterClass::General;
      std::string abi = kAbi[static_cast<std::size_t>(n)];
      detail::add_register(t, abi, abi, n, 0, 64, cls);
      detail::add_register(t, "x" + std::to_string(n), abi, n, 0, 64, cls);
    }
    detail::add_register(t, "fp", "s0", 8, 0, 64);
    for (int n = 0; n < 32; ++n) {
      std::string abi = kFpAbi[static_cast<std::size_t>(n)];
      detail::add_register(t, abi, abi, 32 + n, 0, 64, RegisterClass::Vector);
      detail::add_register(t, "f" + std::to_string(n), abi, 32 + n, 0, 64,
                           RegisterClass::Vector);
    }
    return t;
  }();
  return table;
}

// libbpf reads the ABI names only (a0, not x10 or fp).
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.name != reg.full_name)
    return "register name " + reg.name + ": libbpf accepts only the ABI name " +
           reg.full_name;
  return std::nullopt;
}

// libbpf reads off(reg) only: (a0) needs its 0.
std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (!loc.has_displacement)
    return loc.operand +
           " without an offset: libbpf requires off(reg), such as 0(" +
           loc.base->name + ")";
  return std::nullopt;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_riscv64 = {
    .name = "riscv64",
    .elf_machine = EM_RISCV,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // ebreak reports its own pc
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = xsdt::encode_jump<xsdt::kJump>,
    .decode_jump = xsdt::decode_jump<xsdt::kJump>,
    .encode_jump_nop = nullptr,     // the same NOP at every site
    .jump_needs_trap_first = false, // one aligned 32-bit store
    .register_prefix = "",
    .registers = xsdt::registers,
    .parse_operand = xsdt::riscv64::parse_operand,
    .register_name_violation = xsdt::register_name_violation,
    .memory_violation = xsdt::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::riscv64::kConsumerGrammar,
};
