// RISC-V operands as gcc and clang print them:
//   a0  s1  x10  zero  fp       registers (ABI or numeric names)
//   42  -7                      immediates
//   -88(s0)  (a0)               base + offset
//   %lo(sym)(a5)  sym           symbolic, relocation functions
#include "xsdt/arch_parts.h"

namespace xsdt::riscv64 {
using namespace detail;
namespace {

// Register-shaped names (x32, a8, t7, fs12) must not be read as symbols.
bool looks_like_register(std::string_view word) {
  for (std::string_view prefix : {"ft", "fa", "fs", "x", "a", "s", "t", "f"}) {
    if (word.size() <= prefix.size() || word.substr(0, prefix.size()) != prefix)
      continue;
    bool digits = true;
    for (char c : word.substr(prefix.size()))
      digits = digits && is_digit(c);
    if (digits)
      return true;
  }
  return false;
}

// `(reg)` after an offset or on its own.
void parse_base(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('(', "'('");
  std::size_t at = lx.at();
  std::string_view name = lx.take_word();
  if (name.empty())
    lx.fail_here("expected a base register");
  RegisterInfo base = require_register(arch, name, at);
  require_address_register(base, at);
  set_base(loc, base);
  lx.expect(')', "')'");
  loc.kind = LocationKind::Memory;
}

// %lo(sym), %pcrel_lo(.L1): the cursor on '%'.
void parse_relocation(Lexer &lx) {
  lx.expect('%', "'%'");
  if (lx.take_word().empty())
    lx.fail_here("expected a relocation function");
  lx.expect('(', "'(' after the relocation function");
  lex_expression(lx);
  lx.expect(')', "')'");
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  if (c == '(') {
    parse_base(lx, arch, loc);
    lx.expect_end();
    return;
  }
  if (c == '%') {
    parse_relocation(lx);
    if (lx.peek() == '(')
      parse_base(lx, arch, loc);
    lx.expect_end();
    mark_symbolic(loc, "needs symbol resolution");
    return;
  }
  if (is_ident_start(c)) {
    std::size_t mark = lx.mark();
    std::size_t at = lx.at();
    std::string_view word = lx.take_word();
    if (auto reg = lookup_register(arch, word)) {
      lx.expect_end();
      loc.kind = LocationKind::Register;
      set_base(loc, *reg);
      return;
    }
    if (looks_like_register(word))
      fail("unknown riscv64 register", word, at);
    lx.reset(mark);
  } else if (!is_digit(c) && c != '-' && c != '+') {
    lx.fail_here("expected a register, an immediate or '('");
  }
  Expression value = lex_expression(lx);
  if (lx.peek() == '(') {
    parse_base(lx, arch, loc);
    loc.displacement = value.value;
    loc.has_displacement = true;
  } else {
    loc.kind = LocationKind::Immediate;
    loc.immediate = value.value;
  }
  loc.constant_expression = value.terms > 1;
  lx.expect_end();
  if (value.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

} // namespace xsdt::riscv64
