// 32-bit ARM operands as gcc and clang print them into a spec (sys/sdt.h's
// "g" and xsdt's argument area):
//   r0  ip  fp  lr  sp  r12        a register (gcc prints the aliases fp,
//                                  ip, lr; clang r11 and r12)
//   #5  #-5  5                     an immediate
//   [r0]  [sp, #8]  [r7, #-4]      base + displacement
//   [sp, 8]                        the same without '#'
//   [r0, r1]  [r0, r1, lsl #1]     base + index (scaled)
// The portable subset is what gdb and libbpf both read (descriptor.cpp):
// bare r0..r10, [R] and [R, #D] with R in r0..r10, fp, ip, sp, lr, and
// #IMM of at most 32 bits. bcc has no 32-bit ARM parser.
#include "arm/arm.h"

namespace xsdt::arm {
using namespace detail;
namespace {

RegisterInfo parse_register(Lexer &lx, Arch arch) {
  std::size_t at = lx.at();
  std::string_view name = lx.take_word();
  if (name.empty())
    lx.fail_here("expected a register");
  return require_register(arch, name, at);
}

RegisterInfo parse_address_register(Lexer &lx, Arch arch) {
  std::size_t at = lx.at();
  RegisterInfo reg = parse_register(lx, arch);
  require_address_register(reg, at);
  return reg;
}

// `, lsl #2` after an index register: the scale.
int parse_shift(Lexer &lx) {
  lx.skip_spaces();
  if (!lx.eat(','))
    return 1;
  lx.skip_spaces();
  std::size_t at = lx.at();
  std::string_view op = lx.take_word();
  if (op != "lsl")
    fail("expected lsl", op, at);
  lx.skip_spaces();
  lx.expect('#', "'#' before the shift");
  at = lx.at();
  std::string_view amount = lx.take_word();
  const std::uint64_t shift = parse_unsigned(amount, at);
  if (shift > 3)
    fail("a shift of at most 3", amount, at);
  return 1 << shift;
}

// [R], [R, #D], [R, D], [R, R2], [R, R2, lsl #k]; the cursor on '['.
void parse_memory(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('[', "'['");
  lx.skip_spaces();
  set_base(loc, parse_address_register(lx, arch));
  lx.skip_spaces();
  if (lx.eat(',')) {
    lx.skip_spaces();
    char c = lx.peek();
    if (c == '#' || c == '-' || c == '+' || is_digit(c)) {
      lx.eat('#');
      Expression value = lex_expression(lx);
      loc.displacement = value.value;
      loc.has_displacement = true;
      loc.constant_expression = value.terms > 1;
      if (value.symbolic)
        mark_symbolic(loc, "needs symbol resolution");
    } else {
      RegisterInfo index = parse_address_register(lx, arch);
      set_index(loc, index, parse_shift(lx));
    }
    lx.skip_spaces();
  }
  lx.expect(']', "']'");
  lx.expect_end();
  loc.kind = LocationKind::Memory;
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  if (c == '[') {
    parse_memory(lx, arch, loc);
    return;
  }
  if (c == '#' || c == '$' || c == '-' || c == '+' || is_digit(c)) {
    if (c == '#' || c == '$')
      lx.eat(c);
    Expression value = lex_expression(lx);
    lx.expect_end();
    loc.kind = LocationKind::Immediate;
    loc.immediate = value.value;
    loc.constant_expression = value.terms > 1;
    if (value.symbolic)
      mark_symbolic(loc, "needs symbol resolution");
    return;
  }
  if (!is_ident_start(c))
    lx.fail_here("expected a register, an immediate or a memory operand");
  std::size_t mark = lx.mark();
  std::string_view word = lx.take_word();
  lx.reset(mark);
  if (lookup_register(arch, word)) {
    set_base(loc, parse_register(lx, arch));
    lx.expect_end();
    loc.kind = LocationKind::Register;
    return;
  }
  Expression value = lex_expression(lx);
  lx.expect_end();
  loc.kind = LocationKind::Immediate;
  loc.immediate = value.value;
  mark_symbolic(loc, "needs symbol resolution");
}

} // namespace xsdt::arm
