// MIPS operands as gcc and clang print them into a spec (sys/sdt.h's "nor"
// and xsdt's "nr"):
//   $4  $sp  $fp  $a0  $31         a register (gcc and clang print numbers,
//                                  and $sp, $fp for 29 and 30)
//   5  -7                          an immediate (no prefix: a bare number
//                                  is never a register)
//   8($sp)  -24($fp)  ($4)         base + displacement
//   %lo(sym)($2)  %gp_rel(x)($28)  symbolic, relocation operators
//   sym  sym+4                     symbolic
// No consumer reads a MIPS spec (consumers.cpp): the portable subset is the
// generic one.
#include "mips/mips.h"

namespace xsdt::mips {
using namespace detail;
namespace {

// `$name` with the cursor on '$'.
RegisterInfo parse_register(Lexer &lx, Arch arch) {
  lx.expect('$', "'$' before a register");
  std::size_t at = lx.at();
  std::string_view name = lx.take_word();
  if (name.empty())
    lx.fail_here("expected a register after '$'");
  return require_register(arch, name, at);
}

// `($reg)` after a displacement or on its own.
void parse_base(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('(', "'('");
  std::size_t at = lx.at();
  RegisterInfo base = parse_register(lx, arch);
  require_address_register(base, at);
  set_base(loc, base);
  lx.expect(')', "')'");
  loc.kind = LocationKind::Memory;
}

// %lo(sym), %got_disp(.LC0), %lo($LC15): the cursor on '%'. gcc names
// its o32 local labels with a '$', which no register has in front of a
// letter pair here: the symbol is whatever stands inside the parentheses.
void parse_relocation(Lexer &lx) {
  lx.expect('%', "'%'");
  if (lx.take_word().empty())
    lx.fail_here("expected a relocation operator");
  lx.expect('(', "'(' after the relocation operator");
  if (!lx.eat('$'))
    lex_expression(lx);
  else if (lx.take_word().empty())
    lx.fail_here("expected a symbol after '$'");
  lx.expect(')', "')'");
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  if (c == '$') {
    set_base(loc, parse_register(lx, arch));
    lx.expect_end();
    loc.kind = LocationKind::Register;
    return;
  }
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
  if (!is_digit(c) && c != '-' && c != '+' && !is_ident_start(c))
    lx.fail_here("expected a register, an immediate or a memory operand");
  Expression value = lex_expression(lx);
  if (lx.peek() == '(') {
    parse_base(lx, arch, loc);
    lx.expect_end();
    loc.displacement = value.value;
    loc.has_displacement = true;
    loc.constant_expression = value.terms > 1;
    if (value.symbolic)
      mark_symbolic(loc, "needs symbol resolution");
    return;
  }
  lx.expect_end();
  loc.kind = LocationKind::Immediate;
  loc.immediate = value.value;
  loc.constant_expression = value.terms > 1;
  if (value.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

} // namespace xsdt::mips
