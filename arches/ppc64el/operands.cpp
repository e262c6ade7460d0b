// POWER operands as gcc and clang print them into a spec (sys/sdt.h's
// %I[x]%[x] template; the registers have no names unless -mregnames):
//   3  %r3  r3            a general register (a bare number is one)
//   i5  i-7               immediates (%I prints the i)
//   8(3)  -16(%r1)  0(r9) base + displacement
//   3,4  %r3,%r4          base + index (indexed form)
//   (9)                   base without displacement
// The portable subset is what gdb, which reads registers by number only,
// and bcc both read: 3, i5 and 8(3) (descriptor.cpp). libbpf has no
// powerpc USDT support.
//   sym@toc@l(2)  .LC0    symbolic
#include "xsdt/arch_parts.h"

namespace xsdt::ppc64el {
using namespace detail;
namespace {

// A register as its number (3), a name (r3, f1) or either with '%'.
RegisterInfo parse_register(Lexer &lx, Arch arch) {
  lx.eat('%');
  std::size_t at = lx.at();
  std::string_view word = lx.take_word();
  if (word.empty())
    lx.fail_here("expected a register");
  if (is_digit(word.front()) && !lookup_register(arch, word))
    fail("no general register has this number", word, at);
  return require_register(arch, word, at);
}

RegisterInfo parse_address_register(Lexer &lx, Arch arch) {
  std::size_t at = lx.at();
  RegisterInfo reg = parse_register(lx, arch);
  require_address_register(reg, at);
  return reg;
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  // i5, i-7: an immediate (not the start of a symbol: those have no digit
  // or sign after the i).
  if (c == 'i' &&
      (is_digit(lx.peek(1)) || lx.peek(1) == '-' || lx.peek(1) == '+')) {
    lx.eat('i');
    Expression value = lex_expression(lx);
    lx.expect_end();
    loc.kind = LocationKind::Immediate;
    loc.immediate = value.value;
    loc.constant_expression = value.terms > 1;
    if (value.symbolic)
      mark_symbolic(loc, "needs symbol resolution");
    return;
  }
  if (c == '(') { // (9): a base without displacement
    lx.eat('(');
    set_base(loc, parse_address_register(lx, arch));
    lx.expect(')', "')'");
    lx.expect_end();
    loc.kind = LocationKind::Memory;
    return;
  }
  std::size_t mark = lx.mark();
  if (c == '%' || is_digit(c) || is_ident_start(c)) {
    // A register on its own, or the base of an indexed form.
    std::size_t at = lx.at();
    lx.eat('%');
    std::string_view word = lx.take_word();
    // A word followed by '(' is a displacement (0(9)); '%' always starts
    // a register.
    bool is_register =
        c == '%' || (!word.empty() && lx.peek() != '(' &&
                     (lookup_register(arch, word) || is_digit(word.front())));
    lx.reset(mark);
    if (is_register) {
      RegisterInfo reg = parse_register(lx, arch);
      if (lx.eat(',')) {
        require_address_register(reg, at);
        set_base(loc, reg);
        set_index(loc, parse_address_register(lx, arch), 1);
        loc.kind = LocationKind::Memory;
      } else {
        loc.kind = LocationKind::Register;
        set_base(loc, reg);
      }
      lx.expect_end();
      return;
    }
  }
  if (!is_digit(c) && c != '-' && c != '+' && !is_ident_start(c))
    lx.fail_here("expected a register, an immediate or a memory operand");
  Expression value = lex_expression(lx);
  lx.expect('(', "'(' after a displacement");
  set_base(loc, parse_address_register(lx, arch));
  lx.expect(')', "')'");
  lx.expect_end();
  loc.kind = LocationKind::Memory;
  loc.displacement = value.value;
  loc.has_displacement = true;
  loc.constant_expression = value.terms > 1;
  if (value.symbolic)
    mark_symbolic(loc, "needs symbol resolution");
}

} // namespace xsdt::ppc64el
