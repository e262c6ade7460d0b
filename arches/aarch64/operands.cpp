// AArch64 operands as gcc and clang print them:
//   x3  w3  sp                  registers
//   42  -7  #42                 immediates (gcc's %x prints them bare)
//   [x1]  [sp, 16]  [x29, #-8]  base + offset
//   [x1, x2]  [x1, w2, sxtw #2] register offset (index)
//   [x0, #:lo12:sym]  :lo12:sym symbolic, relocation operators
#include "xsdt/arch_parts.h"

namespace xsdt::aarch64 {
using namespace detail;
namespace {

// Names shaped like registers must never be read as symbols: `x31` is a
// typo or a bug, not a symbol called x31.
bool looks_like_register(std::string_view word) {
  if (word.size() < 2)
    return false;
  if (std::string_view("xwvqdshb").find(word[0]) == std::string_view::npos)
    return false;
  for (char c : word.substr(1))
    if (!is_digit(c))
      return false;
  return true;
}

// `:lo12:sym+8`, the cursor on the first ':'.
void parse_relocation(Lexer &lx, ArgLocation &loc) {
  lx.expect(':', "':'");
  if (lx.take_word().empty())
    lx.fail_here("expected a relocation operator");
  lx.expect(':', "':' after the relocation operator");
  lex_expression(lx);
  mark_symbolic(loc, "needs symbol resolution");
}

// The cursor on a word that is not a register: a symbol, or an error.
void parse_symbol(Lexer &lx, ArgLocation &loc) {
  std::size_t mark = lx.mark();
  std::size_t at = lx.at();
  std::string_view word = lx.take_word();
  if (looks_like_register(word))
    fail("unknown aarch64 register", word, at);
  lx.reset(mark);
  lex_expression(lx);
  mark_symbolic(loc, "needs symbol resolution");
}

// `, lsl #2` / `, sxtw` after an index register. sign_extend: `sxtw`,
// whose 32-bit index counts negative when its top bit is set.
int parse_extend(Lexer &lx, bool &sign_extend) {
  lx.skip_spaces();
  if (!lx.eat(','))
    return 1;
  lx.skip_spaces();
  std::size_t at = lx.at();
  std::string_view op = lx.take_word();
  if (op != "lsl" && op != "uxtw" && op != "sxtw" && op != "sxtx" &&
      op != "uxtx")
    fail("expected lsl, uxtw, sxtw, uxtx or sxtx", op, at);
  sign_extend = op == "sxtw";
  lx.skip_spaces();
  if (!lx.eat('#'))
    return 1;
  std::size_t amount_at = lx.at();
  std::string_view amount = lx.take_word();
  if (amount.size() != 1 || amount[0] < '0' || amount[0] > '3')
    fail("shift amount must be 0..3", amount, amount_at);
  return 1 << (amount[0] - '0');
}

void parse_memory(Lexer &lx, Arch arch, ArgLocation &loc) {
  lx.expect('[', "'['");
  lx.skip_spaces();
  std::size_t at = lx.at();
  std::string_view name = lx.take_word();
  RegisterInfo base = require_register(arch, name, at);
  if (base.cls != RegisterClass::General || base.bit_width != 64)
    fail("a base register is an x register or sp", name, at);
  loc.kind = LocationKind::Memory;
  set_base(loc, base);
  lx.skip_spaces();
  if (lx.eat(',')) {
    lx.skip_spaces();
    if (lx.eat('#'))
      loc.hash_immediate = true;
    char c = lx.peek();
    if (c == ':') {
      parse_relocation(lx, loc);
    } else if (is_digit(c) || c == '-' || c == '+') {
      loc.displacement = lex_signed_number(lx);
      loc.has_displacement = true;
    } else if (!loc.hash_immediate && is_ident_start(c)) {
      std::size_t mark = lx.mark();
      std::size_t index_at = lx.at();
      std::string_view word = lx.take_word();
      if (auto index = lookup_register(arch, word)) {
        if (index->cls != RegisterClass::General || index->dwarf == 31)
          fail("an index register is an x or w register", word, index_at);
        bool sign_extend = false;
        set_index(loc, *index, parse_extend(lx, sign_extend));
        loc.index_signed = sign_extend;
      } else {
        lx.reset(mark);
        parse_symbol(lx, loc);
      }
    } else {
      lx.fail_here("expected an offset or an index register");
    }
  }
  lx.skip_spaces();
  lx.expect(']', "']'");
  if (lx.peek() == '!')
    lx.fail_here("pre-indexed writeback is not a readable operand");
  lx.expect_end();
}

} // namespace

void parse_operand(Lexer &lx, Arch arch, ArgLocation &loc) {
  char c = lx.peek();
  if (c == '[') {
    parse_memory(lx, arch, loc);
    return;
  }
  if (lx.eat('#')) {
    loc.hash_immediate = true;
    c = lx.peek();
  }
  if (c == ':') {
    parse_relocation(lx, loc);
  } else if (is_digit(c) || c == '-' || c == '+') {
    loc.kind = LocationKind::Immediate;
    loc.immediate = lex_signed_number(lx);
  } else if (!loc.hash_immediate && is_ident_start(c)) {
    std::size_t mark = lx.mark();
    std::string_view word = lx.take_word();
    if (auto reg = lookup_register(arch, word)) {
      loc.kind = LocationKind::Register;
      set_base(loc, *reg);
    } else {
      lx.reset(mark);
      parse_symbol(lx, loc);
    }
  } else {
    lx.fail_here("expected a register, an immediate or '['");
  }
  lx.expect_end();
}

} // namespace xsdt::aarch64
