// armhf (Thumb-2 and ARM state): what the generic code asks of this arch
// (xsdt/arch_port.h). ARM state's trap and B, the core registers, the
// operand grammar and the consumers' rules are 32-bit ARM's, shared with
// armel (arches/arm).
//
// Register numbers (DWARF for the ARM architecture): 0..15 r0..r15; 64..95
// s0..s31 (the legacy VFP numbering gcc uses); 256..287 d0..d31.
#include "arm/arm.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

// nop.w (f3af 8000), 4-byte aligned, and the trap udf #1 (de01), the
// 16-bit Thumb breakpoint of Linux's ptrace code and gdb: the kernel sends
// SIGTRAP (TRAP_BRKPT) with the pc of the trap. A 32-bit Thumb instruction
// is no single-copy atomic unit for instruction fetch: ARMv7's list of
// instructions that may be modified while another core executes them
// (ARM ARM A3.5.4) names only 16-bit encodings, and QEMU's translator reads
// the two halfwords one after the other (a 32-bit trap raced into SIGILL
// there). So the trap is the 16-bit one over the first halfword, and a b.w
// goes in by the trap-first protocol: trap, serialize every thread, second
// halfword, serialize, first halfword (jump_needs_trap_first). sys/sdt.h's
// site is the 2-byte nop (bf00), which takes the same trap.
constexpr unsigned char kNop[] = {0xaf, 0xf3, 0x00, 0x80};
constexpr unsigned char kTrap[] = {0x01, 0xde};
constexpr unsigned char kSysSdtNop[] = {0x00, 0xbf};

// ARM state (-marm), in the same process as Thumb code: the `nop` hint
// (e320f000), which sys/sdt.h emits as well, the trap udf #16 and B
// (arm.h). All three are single 4-byte aligned words, and ARMv7 lists B,
// NOP and the breakpoints among the instructions that may be replaced
// while another core executes them (ARM ARM A3.5.4): one store, no
// trap-first protocol.
constexpr unsigned char kArmNop[] = {0x00, 0xf0, 0x20, 0xe3};

// Thumb-2 first: Debian's default, and the state libxsdt's tests build in.
constexpr SiteEncoding kSiteEncodings[] = {
    {kNop, kTrap, "4-byte nop.w"},
    {kSysSdtNop, kTrap, "2-byte nop (sys/sdt.h)"},
    {kArmNop, arm::kTrap, "4-byte ARM nop", &arm::kJump}};

// b.w (T4): the offset counts from the branch + 4, even, +-16 MiB;
// S:I1:I2:imm10:imm11 with J1 = !I1 ^ S and J2 = !I2 ^ S (ARM ARM A8.8.18,
// as Linux's __arm_gen_branch_thumb2). Two halfwords, the first (f000 |
// S:imm10) at the site.
constexpr WordJumpForm kThumbJump = {
    .pc_bias = 4,
    .alignment = 2,
    .offset_bits = 25,
    .fixed_mask = 0xf800d000u,
    .fixed_bits = 0xf0009000u,
    .place =
        [](std::uint32_t bits) {
          const std::uint32_t s = (bits >> 24) & 1, i1 = (bits >> 23) & 1,
                              i2 = (bits >> 22) & 1;
          const std::uint32_t j1 = (~i1 ^ s) & 1, j2 = (~i2 ^ s) & 1;
          return (s << 10 | ((bits >> 12) & 0x3ff)) << 16 | j1 << 13 |
                 j2 << 11 | ((bits >> 1) & 0x7ff);
        },
    .take =
        [](std::uint32_t word) {
          const std::uint32_t hw1 = word >> 16, hw2 = word & 0xffff;
          const std::uint32_t s = (hw1 >> 10) & 1, j1 = (hw2 >> 13) & 1,
                              j2 = (hw2 >> 11) & 1;
          const std::uint32_t i1 = (~(j1 ^ s)) & 1, i2 = (~(j2 ^ s)) & 1;
          return s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ff) << 12 |
                 (hw2 & 0x7ff) << 1;
        },
    .layout = WordLayout::HalfwordsHighFirst,
};

const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    arm::add_core_registers(t);
    for (int n = 0; n < 32; ++n)
      detail::add_register(t, "s" + std::to_string(n), "s" + std::to_string(n),
                           64 + n, 0, 32, RegisterClass::Vector);
    for (int n = 0; n < 32; ++n)
      detail::add_register(t, "d" + std::to_string(n), "d" + std::to_string(n),
                           256 + n, 0, 64, RegisterClass::Vector);
    return t;
  }();
  return table;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_armhf = {
    .name = "armhf",
    .elf_machine = EM_ARM,
    .elf64 = false,
    .word_bits = 32,
    .big_endian = false,
    .function_symbol_flag_bits = 1, // Thumb code
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // udf #1 reports its own pc
    .trap_signal = SIGTRAP,
    .trap_race_signal = SIGILL,
    .encode_jump = xsdt::encode_jump<xsdt::kThumbJump>,
    .decode_jump = xsdt::decode_jump<xsdt::kThumbJump>,
    .encode_jump_nop = nullptr,    // the same NOP at every site
    .jump_needs_trap_first = true, // b.w is two halfwords to fetch
    .register_prefix = "",
    .registers = xsdt::registers,
    .parse_operand = xsdt::arm::parse_operand,
    .register_name_violation = xsdt::arm::register_name_violation,
    .memory_violation = xsdt::arm::memory_violation,
    .location_violation = xsdt::arm::location_violation,
    .wide_register_value_reason = xsdt::arm::kWideRegisterValueReason,
    .consumer_grammar = &xsdt::arm::kConsumerGrammar,
    .elf_attributes_section = xsdt::arm::kAttributesSection,
    .elf_claims =
        [](std::uint32_t f, std::span<const unsigned char> a) {
          return !xsdt::arm::soft_float_file(f, a);
        },
};
