// Internal to xsdt_argspec: a cursor over one operand, number and
// displacement-expression lexing shared by the per-arch operand grammars.
//
// Parsing failures unwind with detail::Failure, caught at the public entry
// points (argspec.cpp), so the grammars read straight through without
// threading error values by hand.
#ifndef XSDT_ARGSPEC_LEXER_H
#define XSDT_ARGSPEC_LEXER_H

#include "xsdt/argspec.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xsdt::detail {

struct Failure {
  ParseError error;
};

[[noreturn]] void fail(std::string message, std::string_view token,
                       std::size_t position);

bool is_word_char(char c);   // [A-Za-z0-9_.$]
bool is_ident_start(char c); // [A-Za-z_.]
bool is_digit(char c);

class Lexer {
public:
  // `origin` is the offset of `text` in the string the caller reports
  // positions against.
  Lexer(std::string_view text, std::size_t origin)
      : text_(text), origin_(origin) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::size_t at() const { return origin_ + pos_; } // absolute position
  std::size_t mark() const { return pos_; }
  void reset(std::size_t mark) { pos_ = mark; }
  std::string_view text() const { return text_; }

  bool eat(char c);
  void skip_spaces();
  // The maximal run of word characters (possibly empty).
  std::string_view take_word();
  // Fails unless the next character is `c`; `what` says what was expected.
  void expect(char c, std::string_view what);
  void expect_end();
  // Fails naming the word (or character) at the cursor.
  [[noreturn]] void fail_here(std::string message) const;

private:
  std::string_view text_;
  std::size_t origin_;
  std::size_t pos_ = 0;
};

// An unsigned literal: "0", decimal without leading zeros (gas would read
// them as octal), or 0x hex; at most 2^64 - 1. `position` locates `word`.
std::uint64_t parse_unsigned(std::string_view word, std::size_t position);

// An optionally signed literal ("-28", "+8", "0x10").
std::int64_t lex_signed_number(Lexer &lx);

// A displacement or immediate: term (('+' | '-') term)*, with an optional
// leading sign; a term is a literal or a symbol with an optional @RELOC
// suffix (sym, .LC0, g@GOTOFF). Stops at the first character that cannot
// continue it.
struct Expression {
  std::int64_t value = 0; // the sum of the literal terms
  int terms = 0;
  bool symbolic = false;
};
Expression lex_expression(Lexer &lx);

} // namespace xsdt::detail

#endif // XSDT_ARGSPEC_LEXER_H
