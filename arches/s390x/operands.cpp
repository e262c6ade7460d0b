// s390x operands as gcc and clang print them into a spec (AT&T-like, %r
// registers, bare immediates):
//   %r2  %f0                 a register
//   5  -56  -123456789012    an immediate (narrow ones printed sign-extended
//                            in their mode: (unsigned char)200 is -56)
//   160(%r15)  -8(%r11)      base + displacement, D(B)
//   16(%r3,%r2)              index + base, D(X,B): gcc -O2 under "nor"
//   (%r1)                    base without displacement
//   sym  sym+8(%r1)          symbolic
// The portable subset is what gdb, libbpf and bcc all read: %rN, D(%rN)
// with the displacement written, and a bare immediate (descriptor.cpp).
#include "xsdt/arch_parts.h"

namespace xsdt::s390x {
using namespace detail;
namespace {

RegisterInfo parse_register(Lexer &lx, Arch arch) {
  std::size_t at = lx.at();
  lx.expect('%', "'%' before a register");
  std::string_view name = lx.take_word();
  if (name.empty())
    lx.fail_here("expected a register name after '%'");
  return require_register(arch, name, at + 1);
}

RegisterInfo parse_address_register(Lexer &lx, Arch arch) {
  std::size_t at = lx.at();
  RegisterInfo reg = parse_register(lx, arch);
  require_address_register(reg, at + 1);
  return reg;
}

// (B) or (X,B): the index comes first on s390x.
void parse_address(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('(', "'('");
  RegisterInfo first = parse_address_register(lx, arch);
  if (lx.eat(',')) {
    set_index(loc, first, 1);
    set_base(loc, parse_address_register(lx, arch));
  } else {
    set_base(loc, first);
  }
  lx.expect(')', "')'");
  lx.expect_end();
  loc.kind = LocationKind::Memory;
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  if (c == '%') {
    RegisterInfo reg = parse_register(lx, arch);
    lx.expect_end();
    loc.kind = LocationKind::Register;
    set_base(loc, reg);
    return;
  }
  if (c == '(') {
    parse_address(lx, arch, loc);
    return;
  }
  if (!is_digit(c) && c != '-' && c != '+' && !is_ident_start(c))
    lx.fail_here("expected a register, an immediate or a memory operand");
  Expression value = lex_expression(lx);
  if (lx.peek() == '(') {
    parse_address(lx, arch, loc);
    loc.displacement = value.value;
    loc.has_displacement = true;
  } else {
    lx.expect_end();
    loc.kind = LocationKind::Immediate;
    loc.immediate = value.value;
  }
  loc.constant_expression = value.terms > 1;
  if (value.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

} // namespace xsdt::s390x
