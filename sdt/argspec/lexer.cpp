#include "xsdt/arch_port.h"

#include <limits>

namespace xsdt::detail {

void fail(std::string message, std::string_view token, std::size_t position) {
  ParseError error;
  error.message = std::move(message);
  error.token = token;
  error.position = position;
  throw Failure{std::move(error)};
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '.';
}

bool is_word_char(char c) {
  return is_ident_start(c) || is_digit(c) || c == '$';
}

bool Lexer::eat(char c) {
  if (peek() != c || done())
    return false;
  ++pos_;
  return true;
}

void Lexer::skip_spaces() {
  while (!done() && text_[pos_] == ' ')
    ++pos_;
}

std::string_view Lexer::take_word() {
  std::size_t start = pos_;
  while (!done() && is_word_char(text_[pos_]))
    ++pos_;
  return text_.substr(start, pos_ - start);
}

void Lexer::expect(char c, std::string_view what) {
  if (!eat(c))
    fail_here("expected " + std::string(what));
}

void Lexer::expect_end() {
  if (!done())
    fail("unexpected text after the operand", text_.substr(pos_), at());
}

void Lexer::fail_here(std::string message) const {
  if (done())
    fail(std::move(message), "", at());
  std::size_t end = pos_;
  while (end < text_.size() && is_word_char(text_[end]))
    ++end;
  if (end == pos_)
    end = pos_ + 1;
  fail(std::move(message), text_.substr(pos_, end - pos_), at());
}

std::uint64_t parse_unsigned(std::string_view word, std::size_t position) {
  unsigned base = 10;
  std::string_view digits = word;
  if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
    base = 16;
    digits = word.substr(2);
  } else if (word.size() > 1 && word[0] == '0') {
    fail("number with a leading zero (octal to the assembler)", word, position);
  }
  if (digits.empty())
    fail("not a number", word, position);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t value = 0;
  for (char c : digits) {
    unsigned d;
    if (is_digit(c))
      d = static_cast<unsigned>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      fail("not a number", word, position);
    if (value > (kMax - d) / base)
      fail("number does not fit in 64 bits", word, position);
    value = value * base + d;
  }
  return value;
}

namespace {

// Applies a sign to a magnitude; a negative magnitude may reach 2^63.
std::int64_t apply_sign(bool negative, std::uint64_t magnitude,
                        std::string_view token, std::size_t position) {
  if (!negative)
    return static_cast<std::int64_t>(magnitude); // wraps above 2^63 - 1
  if (magnitude > (std::uint64_t{1} << 63))
    fail("negative number does not fit in 64 bits", token, position);
  return static_cast<std::int64_t>(0 - magnitude);
}

} // namespace

std::int64_t lex_signed_number(Lexer &lx) {
  std::size_t start = lx.mark();
  std::size_t position = lx.at();
  bool negative = lx.eat('-');
  if (!negative)
    lx.eat('+');
  if (!is_digit(lx.peek()))
    lx.fail_here("expected a number");
  std::size_t word_at = lx.at();
  std::string_view word = lx.take_word();
  std::uint64_t magnitude = parse_unsigned(word, word_at);
  std::string_view token = lx.text().substr(start, lx.mark() - start);
  return apply_sign(negative, magnitude, token, position);
}

Expression lex_expression(Lexer &lx) {
  Expression expr;
  bool negative = lx.eat('-');
  if (!negative)
    lx.eat('+');
  for (;;) {
    std::size_t term_at = lx.at();
    if (is_digit(lx.peek())) {
      std::string_view word = lx.take_word();
      std::uint64_t magnitude = parse_unsigned(word, term_at);
      if (expr.terms == 0) {
        expr.value = apply_sign(negative, magnitude, word, term_at);
      } else {
        // Later terms fold modulo 2^64, as the assembler does.
        std::uint64_t sum = static_cast<std::uint64_t>(expr.value);
        sum = negative ? sum - magnitude : sum + magnitude;
        expr.value = static_cast<std::int64_t>(sum);
      }
    } else if (is_ident_start(lx.peek())) {
      lx.take_word();
      if (lx.eat('@') && lx.take_word().empty())
        lx.fail_here("expected a relocation name after '@'");
      expr.symbolic = true;
    } else {
      lx.fail_here("expected a number or a symbol");
    }
    ++expr.terms;
    if (lx.eat('-'))
      negative = true;
    else if (lx.eat('+'))
      negative = false;
    else
      return expr;
  }
}

} // namespace xsdt::detail
