// armhf (Thumb-2 and ARM state): what the generic code asks of this arch
// (xsdt/arch_port.h).
//
// Register numbers (DWARF for the ARM architecture): 0..15 r0..r15; 64..95
// s0..s31 (the legacy VFP numbering gcc uses); 256..287 d0..d31.
#include "xsdt/arch_parts.h"
#include "xsdt/word_jump.h"

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
// (e320f000), which sys/sdt.h emits as well, the trap udf #16 (e7f001f0),
// Linux's ARM breakpoint (SIGTRAP with the pc of the trap), and B. All
// three are single 4-byte aligned words, and ARMv7 lists B, NOP and the
// breakpoints among the instructions that may be replaced while another
// core executes them (ARM ARM A3.5.4): one store, no trap-first protocol.
constexpr unsigned char kArmNop[] = {0x00, 0xf0, 0x20, 0xe3};
constexpr unsigned char kArmTrap[] = {0xf0, 0x01, 0xf0, 0xe7};

// B (A1, condition AL): the offset counts from the branch + 8, a multiple
// of 4 in +-32 MiB, stored as imm24 = offset / 4.
constexpr WordJumpForm kArmJumpForm = {
    .pc_bias = 8,
    .alignment = 4,
    .offset_bits = 26,
    .fixed_mask = 0xff000000u,
    .fixed_bits = 0xea000000u,
    .place = [](std::uint32_t offset) { return offset >> 2; },
    .take = [](std::uint32_t word) { return (word & 0xffffffu) << 2; },
    .layout = WordLayout::LittleEndian,
};

constexpr JumpEncoding kArmJump = {encode_jump<kArmJumpForm>,
                                   decode_jump<kArmJumpForm>, false};

// Thumb-2 first: Debian's default, and the state libxsdt's tests build in.
constexpr SiteEncoding kSiteEncodings[] = {
    {kNop, kTrap, "4-byte nop.w"},
    {kSysSdtNop, kTrap, "2-byte nop (sys/sdt.h)"},
    {kArmNop, kArmTrap, "4-byte ARM nop", &kArmJump}};

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
    for (int n = 0; n < 15; ++n) {
      const std::string name = "r" + std::to_string(n);
      detail::add_register(t, name, name, n, 0, 32);
    }
    detail::add_register(t, "r15", "r15", 15, 0, 32,
                         RegisterClass::ProgramCounter);
    struct Alias {
      const char *name;
      int number;
    };
    for (Alias a : {Alias{"sb", 9}, Alias{"sl", 10}, Alias{"fp", 11},
                    Alias{"ip", 12}, Alias{"sp", 13}, Alias{"lr", 14}})
      detail::add_register(t, a.name, "r" + std::to_string(a.number), a.number,
                           0, 32);
    detail::add_register(t, "pc", "r15", 15, 0, 32,
                         RegisterClass::ProgramCounter);
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

bool low_register(const RegisterInfo &reg) {
  return reg.cls == RegisterClass::General && reg.dwarf <= 10 &&
         reg.name == reg.full_name;
}

// libbpf reads only r0..r10, fp, ip, sp and lr (calc_pt_regs_off):
// r11..r14, sb and sl are lost on libbpf. gdb reads ip as r12, but fp as
// its own frame-base register $fp, not r11 (lit-tests/consumers: [fp, #0]
// read 0): r11 has no name both read.
std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.cls != RegisterClass::General || low_register(reg))
    return std::nullopt;
  if (reg.name == "fp")
    return "register name fp: gdb reads fp as its frame base $fp, not r11; "
           "libbpf reads no r11";
  if (reg.name == "ip" || reg.name == "sp" || reg.name == "lr")
    return std::nullopt;
  return "register name " + reg.name +
         ": libbpf reads only r0..r10, fp, ip, sp and lr";
}

// '#' is what libbpf's formats require before a displacement
// (`[%15[a-z0-9] , #%ld ]`); gdb stops at an index register ("Missing
// indirection suffix").
std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "index register in " + loc.operand + ": gdb cannot read it";
  if (loc.has_displacement && loc.operand.find('#') == std::string::npos)
    return loc.operand + " without '#' before the displacement: libbpf " +
           "requires [R, #D]";
  return std::nullopt;
}

// A bare register: gdb reads rN only ("Operator `i' not recognized" for
// ip), libbpf r0..r10 and the aliases: r0..r10 is what both read. An
// immediate: libbpf reads #N only (a bare 5 is a register named 5 to it).
std::optional<std::string> location_violation(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Register && loc.base &&
      loc.base->cls == RegisterClass::General && !low_register(*loc.base))
    return "bare register " + loc.base->name +
           ": gdb reads only rN, libbpf only r0..r10 and the aliases fp, "
           "ip, sp, lr; r0..r10 is what both read";
  if (loc.kind == LocationKind::Immediate &&
      loc.operand.find('#') == std::string::npos)
    return "immediate " + loc.operand +
           " without '#': libbpf reads a bare number as a register name";
  return std::nullopt;
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
    .parse_operand = xsdt::armhf::parse_operand,
    .register_name_violation = xsdt::register_name_violation,
    .memory_violation = xsdt::memory_violation,
    .location_violation = xsdt::location_violation,
    .wide_register_value_reason =
        "a 64-bit value is in a register pair, and a spec names one register",
    .consumer_grammar = &xsdt::armhf::kConsumerGrammar,
};
