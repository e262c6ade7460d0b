// The fixture architectures of fixture_arch.h: their register tables, their
// operand grammar (the toolkit of xsdt/arch_port.h), their own portability
// rules, and an ISA of four-byte words so that every field is filled.
#include "fixture_arch.h"

#include <csignal>

#include <string>

namespace xsdt::tests {
namespace {
using namespace detail;

std::vector<RegisterInfo> make_table(int word_bits) {
  std::vector<RegisterInfo> t;
  for (int n = 0; n < 8; ++n) {
    const std::string num = std::to_string(n);
    const std::string full = "r" + num;
    add_register(t, full, full, n, 0, word_bits);
    if (word_bits == 64)
      add_register(t, "w" + num, full, n, 0, 32);
    add_register(t, "b" + num, full, n, 0, 8);
    if (n < 4)
      add_register(t, "h" + num, full, n, 8, 8);
  }
  add_register(t, "fp", "r7", 7, 0, word_bits);
  add_register(t, "pc", "pc", 8, 0, word_bits, RegisterClass::ProgramCounter);
  for (int n = 0; n < 4; ++n) {
    const std::string name = "v" + std::to_string(n);
    add_register(t, name, name, 16 + n, 0, 128, RegisterClass::Vector);
  }
  add_register(t, "zr", "zr", -1, 0, word_bits, RegisterClass::Zero);
  add_register(t, "r40", "r40", 40, 0, word_bits);
  // Broken on purpose: what the evaluator must refuse from a port's table.
  add_register(t, "n0", "r0", 0, 0, 0);
  add_register(t, "x0", "r0", 0, 60, 8);
  return t;
}

const std::vector<RegisterInfo> &registers64() {
  static const std::vector<RegisterInfo> table = make_table(64);
  return table;
}

const std::vector<RegisterInfo> &registers32() {
  static const std::vector<RegisterInfo> table = make_table(32);
  return table;
}

// '%' and a register name at the cursor.
RegisterInfo take_register(Lexer &lx, Arch arch) {
  const std::size_t at = lx.at();
  lx.expect('%', "'%'");
  return require_register(arch, lx.take_word(), at);
}

// [base, index*scale, displacement], every part but the brackets optional.
void parse_memory(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('[', "'['");
  loc.kind = LocationKind::Memory;
  Expression disp;
  bool have_disp = false;
  auto take_displacement = [&] {
    if (have_disp)
      lx.fail_here("a second displacement");
    if (lx.eat('#'))
      loc.hash_immediate = true;
    disp = lex_expression(lx);
    have_disp = true;
  };
  if (lx.peek() == '%') {
    const std::size_t at = lx.at();
    RegisterInfo base = take_register(lx, arch);
    if (base.cls == RegisterClass::Vector)
      fail("a vector register cannot address memory", "%" + base.name, at);
    set_base(loc, base);
  } else {
    take_displacement(); // an absolute address
  }
  while (lx.eat(',')) {
    lx.skip_spaces();
    if (lx.peek() != '%') {
      take_displacement();
      continue;
    }
    const std::size_t at = lx.at();
    RegisterInfo index = take_register(lx, arch);
    if (loc.index)
      fail("a second index register", "%" + index.name, at);
    if (index.cls != RegisterClass::General)
      fail("an index register is a general register", "%" + index.name, at);
    int scale = 1;
    if (lx.eat('*')) {
      const std::size_t scale_at = lx.at();
      std::string_view word = lx.take_word();
      if (word != "1" && word != "2" && word != "4" && word != "8")
        fail("scale must be 1, 2, 4 or 8", word, scale_at);
      scale = word[0] - '0';
    }
    set_index(loc, index, scale);
  }
  lx.expect(']', "']'");
  lx.expect_end();
  if (have_disp) {
    loc.has_displacement = true;
    loc.displacement = disp.value;
    loc.constant_expression = disp.terms > 1;
  }
  if (disp.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  if (lx.peek() == '[') {
    parse_memory(lx, arch, loc);
    return;
  }
  if (lx.peek() == '%') {
    RegisterInfo reg = take_register(lx, arch);
    lx.expect_end();
    loc.kind = LocationKind::Register;
    set_base(loc, reg);
    return;
  }
  if (lx.eat('#'))
    loc.hash_immediate = true;
  Expression value = lex_expression(lx);
  lx.expect_end();
  loc.kind = LocationKind::Immediate;
  loc.immediate = value.value;
  loc.constant_expression = value.terms > 1;
  if (value.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

std::optional<std::string> register_name_violation(const RegisterInfo &reg) {
  if (reg.name == "fp")
    return "register alias %" + reg.name + ": consumers know it as %" +
           reg.full_name;
  return std::nullopt;
}

std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index && loc.scale != 1)
    return "scaled index in " + loc.operand +
           ": fixture consumers read unscaled indexes only";
  return std::nullopt;
}

// Little-endian words: the NOP 0x01000000, the trap 0x02000000, and the
// jump 0xea in the top byte over a signed 24-bit word offset.
constexpr unsigned char kNop[] = {0x00, 0x00, 0x00, 0x01};
constexpr unsigned char kTrap[] = {0x00, 0x00, 0x00, 0x02};
constexpr SiteEncoding kSiteEncodings[] = {{kNop, kTrap, "fixture nop"}};

bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  const auto off = static_cast<std::int64_t>(target - site);
  if (off % 4 != 0 || off < -(std::int64_t{1} << 25) ||
      off >= (std::int64_t{1} << 25))
    return false;
  const auto words = static_cast<std::uint32_t>(off / 4) & 0xffffffu;
  for (int i = 0; i < 3; ++i)
    out[i] = static_cast<unsigned char>(words >> (8 * i));
  out[3] = 0xea;
  return true;
}

bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target) {
  if (in[3] != 0xea)
    return false;
  std::int64_t words = in[0] | in[1] << 8 | in[2] << 16;
  if (words & 0x800000)
    words -= 0x1000000;
  *target = site + static_cast<std::uint64_t>(words * 4);
  return true;
}

} // namespace

constinit const ArchDescriptor kFixtureDescriptor = {
    .name = "fixture",
    .elf_machine = 0xfe01, // in no registry
    .elf64 = true,
    .word_bits = 64,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = true,
    .site_encodings = kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0,
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = encode_jump,
    .decode_jump = decode_jump,
    .encode_jump_nop = nullptr, // the same NOP at every site
    .jump_needs_trap_first = false,
    .register_prefix = "%",
    .registers = registers64,
    .parse_operand = parse_operand,
    .register_name_violation = register_name_violation,
    .memory_violation = memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = nullptr,
};

constinit const ArchDescriptor kFixture32Descriptor = {
    .name = "fixture32",
    .elf_machine = 0xfe02,
    .elf64 = false,
    .word_bits = 32,
    .big_endian = false,
    .function_symbol_flag_bits = 0,
    .narrow_registers_narrow_address = false,
    .site_encodings = kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0,
    .trap_signal = SIGTRAP,
    .trap_race_signal = 0,
    .encode_jump = encode_jump,
    .decode_jump = decode_jump,
    .encode_jump_nop = nullptr, // the same NOP at every site
    .jump_needs_trap_first = false,
    .register_prefix = "%",
    .registers = registers32,
    .parse_operand = parse_operand,
    .register_name_violation = register_name_violation,
    .memory_violation = memory_violation,
    .location_violation = nullptr,
    .wide_register_value_reason = kFixture32WideReason,
};

} // namespace xsdt::tests
