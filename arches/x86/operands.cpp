// AT&T operands as gcc and clang print them for "nor"/"g" constraints:
//   %reg                       register of any width
//   $imm  $sym                 immediate (symbolic when it names a symbol)
//   disp(%base,%index,scale)   memory; every part but the parentheses optional
//   sym(%rip) sym@GOTOFF(%ecx) symbolic displacements
//   %fs:disp(...)              segment-relative (needs the segment base)
#include "x86/x86.h"

namespace xsdt::x86 {
using namespace detail;
namespace {

bool is_segment(std::string_view name) {
  return name == "cs" || name == "ds" || name == "es" || name == "fs" ||
         name == "gs" || name == "ss";
}

// `%name` at the cursor, as a register usable in an address.
RegisterInfo address_register(Lexer &lx, Arch arch, bool is_index) {
  std::size_t at = lx.at();
  if (!lx.eat('%'))
    lx.fail_here(is_index ? "expected an index register" : "expected '%'");
  std::string_view name = lx.take_word();
  RegisterInfo reg = require_register(arch, name, at);
  std::string token = "%" + std::string(name);
  bool pc = reg.cls == RegisterClass::ProgramCounter;
  if (reg.cls != RegisterClass::General && !(pc && !is_index))
    fail("register cannot address memory", token, at);
  const int word_bits = arch.descriptor().word_bits;
  if (pc && word_bits == 32)
    fail(std::string(arch_name(arch)) + " has no PC-relative addressing", token,
         at);
  if (reg.bit_width != 64 && reg.bit_width != 32)
    fail("address registers are 64 or 32 bits wide", token, at);
  if (word_bits == 32 && reg.bit_width != 32)
    fail(std::string(arch_name(arch)) + " address registers are 32 bits wide",
         token, at);
  if (is_index && (reg.full_name == "rsp" || reg.full_name == "esp"))
    fail("the stack pointer cannot be an index register", token, at);
  return reg;
}

// disp(%base,%index,scale), or a bare displacement (an absolute address).
void parse_memory(Lexer &lx, Arch arch, ArgLocation &loc) {
  if (lx.done())
    lx.fail_here("missing memory operand");
  Expression disp;
  if (lx.peek() != '(') {
    disp = lex_expression(lx);
    loc.has_displacement = true;
    loc.displacement = disp.value;
    loc.constant_expression = disp.terms > 1;
  }
  loc.kind = LocationKind::Memory;
  if (lx.eat('(')) {
    std::size_t open_at = lx.at() - 1;
    if (lx.peek() == '%')
      set_base(loc, address_register(lx, arch, false));
    else if (lx.peek() != ',')
      lx.fail_here("expected a base register ('%' prefix) or ','");
    if (lx.eat(',')) {
      RegisterInfo index = address_register(lx, arch, true);
      int scale = 1;
      if (lx.eat(',')) {
        std::size_t at = lx.at();
        std::string_view word = lx.take_word();
        if (word != "1" && word != "2" && word != "4" && word != "8")
          fail("scale must be 1, 2, 4 or 8", word, at);
        scale = word[0] - '0';
      }
      if (loc.base && loc.base->cls == RegisterClass::ProgramCounter)
        fail("PC-relative addresses take no index register", "%" + index.name,
             open_at);
      if (loc.base && loc.base->bit_width != index.bit_width)
        fail("base and index registers differ in width", "%" + index.name,
             open_at);
      set_index(loc, index, scale);
    }
    lx.expect(')', "')'");
  }
  lx.expect_end();
  if (disp.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  if (lx.eat('$')) {
    if (lx.done())
      lx.fail_here("missing immediate after '$'");
    Expression value = lex_expression(lx);
    lx.expect_end();
    loc.kind = LocationKind::Immediate;
    loc.immediate = value.value;
    loc.constant_expression = value.terms > 1;
    if (value.symbolic)
      mark_symbolic(loc, "needs symbol resolution");
    return;
  }
  if (lx.peek() == '%') {
    std::size_t at = lx.at();
    lx.eat('%');
    std::string_view name = lx.take_word();
    if (lx.eat(':')) {
      if (!is_segment(name))
        fail("not a segment register", "%" + std::string(name), at);
      parse_memory(lx, arch, loc);
      mark_symbolic(loc, "needs the %" + std::string(name) + " segment base");
      return;
    }
    RegisterInfo reg = require_register(arch, name, at);
    lx.expect_end();
    loc.kind = LocationKind::Register;
    set_base(loc, reg);
    return;
  }
  parse_memory(lx, arch, loc);
}

std::optional<std::string> memory_violation(const ArgLocation &loc) {
  if (loc.index)
    return "index register %" + loc.index->name + " in " + loc.operand +
           ": libbpf before 1.7 and bcc reject SIB forms";
  return std::nullopt;
}

} // namespace xsdt::x86
