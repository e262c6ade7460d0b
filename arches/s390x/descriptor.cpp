// s390x: what the generic code asks of this arch (xsdt/arch_port.h).
//
// Register numbers (DWARF, the s390x ELF ABI, as gdb's s390_dwarf_regmap):
// 0..15 r0..r15; 16..31 f0 f2 f4 f6 f1 f3 f5 f7 f8 f10 f12 f14 f9 f11 f13
// f15 (not in numeric order).
#include "xsdt/arch_parts.h"

#include <elf.h>

#include <csignal>
#include <iterator>

namespace xsdt {
namespace {

// The site is `brcl 0,.+6`, a branch never taken (c0 04 00 00 00 03); the
// trap is 0x0001, the illegal opcode that gdb and Linux use as the s390
// breakpoint, written over the first halfword with one aligned 2-byte
// store. It raises SIGILL (SIGTRAP only under ptrace) with the pc after
// it. sys/sdt.h's site is the 4-byte `nop 0` (bc 0,0).
constexpr unsigned char kNop[] = {0xc0, 0x04, 0x00, 0x00, 0x00, 0x03};
constexpr unsigned char kTrap[] = {0x00, 0x01};
constexpr unsigned char kSysSdtNop[] = {0x47, 0x00, 0x00, 0x00};
constexpr SiteEncoding kSiteEncodings[] = {
    {kNop, kTrap, "6-byte brcl 0,.+6"},
    {kSysSdtNop, kTrap, "4-byte nop 0 (sys/sdt.h)"}};

// brcl MASK,target (RIL-c): c0, the mask in the high nibble of the second
// byte with 4 in the low one, then a signed 32-bit offset in halfwords from
// the instruction itself, big-endian: +-4 GiB.
constexpr unsigned char kMaskNever = 0x04, kMaskAlways = 0xf4;

bool encode_brcl(unsigned char mask, std::uint64_t site, std::uint64_t target,
                 unsigned char *out) {
  const std::int64_t off = static_cast<std::int64_t>(target - site);
  if (off % 2 != 0 || off < -(std::int64_t{1} << 32) ||
      off >= (std::int64_t{1} << 32))
    return false;
  const auto halfwords = static_cast<std::uint32_t>(off / 2);
  out[0] = 0xc0;
  out[1] = mask;
  for (int i = 0; i < 4; ++i)
    out[2 + i] = static_cast<unsigned char>(halfwords >> (8 * (3 - i)));
  return true;
}

// Enabled: `brcl 15,target` (jg). Disabled: `brcl 0,target`, so that the
// two differ in the mask byte alone, as Linux's jump labels
// (arch/s390/kernel/jump_label.c).
bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  return encode_brcl(kMaskAlways, site, target, out);
}

bool encode_jump_nop(std::uint64_t site, std::uint64_t target,
                     unsigned char *out) {
  return encode_brcl(kMaskNever, site, target, out);
}

bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target) {
  if (in[0] != 0xc0 || in[1] != kMaskAlways)
    return false;
  std::uint32_t halfwords = 0;
  for (int i = 0; i < 4; ++i)
    halfwords = halfwords << 8 | in[2 + i];
  const auto off = std::int64_t{static_cast<std::int32_t>(halfwords)} * 2;
  *target = site + static_cast<std::uint64_t>(off);
  return true;
}

const std::vector<RegisterInfo> &registers() {
  static constexpr int kFpDwarf[] = {16, 20, 17, 21, 18, 22, 19, 23,
                                     24, 28, 25, 29, 26, 30, 27, 31};
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    for (int n = 0; n < 16; ++n) {
      const std::string name = "r" + std::to_string(n);
      detail::add_register(t, name, name, n, 0, 64);
    }
    for (std::size_t n = 0; n < std::size(kFpDwarf); ++n) {
      const std::string name = "f" + std::to_string(n);
      detail::add_register(t, name, name, kFpDwarf[n], 0, 64,
                           RegisterClass::Vector);
    }
    return t;
  }();
  return table;
}

// gdb stops at an index register ("Missing indirection suffix"), and libbpf
// reads 0(%r1,%r10) as 0(%r1) without noticing; gdb needs the displacement
// written (s390_stap_is_single_operand wants a digit before the '('). %r0
// as an address register means 0 to the CPU, not the register's value.
std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "index register in " + loc.operand +
           ": gdb cannot read it and libbpf ignores it";
  if (!loc.has_displacement)
    return loc.operand +
           " without a displacement: gdb requires one, such as "
           "0(%" +
           loc.base->name + ")";
  if (loc.base->dwarf == 0)
    return loc.operand + ": %r0 as a base register stands for 0 on s390x";
  return std::nullopt;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_s390x = {
    .name = "s390x",
    .elf_machine = EM_S390,
    .elf64 = true,
    .word_bits = 64,
    .big_endian = true,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 2,
    .trap_pc_offset = 2, // the pc after the 2-byte 0x0001
    .trap_signal = SIGILL,
    .trap_race_signal = 0,
    .encode_jump = xsdt::encode_jump,
    .decode_jump = xsdt::decode_jump,
    .encode_jump_nop = xsdt::encode_jump_nop,
    .jump_needs_trap_first = false, // one byte, the mask, changes
    .register_prefix = "%",
    .registers = xsdt::registers,
    .parse_operand = xsdt::s390x::parse_operand,
    .register_name_violation = nullptr,
    .memory_violation = xsdt::memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
    .consumer_grammar = &xsdt::s390x::kConsumerGrammar,
};
