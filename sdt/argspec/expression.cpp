// gdb's expressions over an arch's operands: `$3+($10-$8)`, `-($4)`,
// `x0+x1`, `!(%r2==8)`. gdb's SystemTap support (stap-probe.c) reads an
// operand as an expression of the arch's operands joined by the assembler's
// infix operators, with parentheses for grouping; no compiler prints one,
// and no other consumer reads one. Such an operand is classified, not
// rejected: it comes back Symbolic, with the reason that only gdb
// evaluates it.
//
// The arch's grammar (its descriptor's parse_operand) is asked first, for
// the whole operand: what it reads parses exactly as it always did. Only an
// operand it refuses is read as an expression, whose operands ("atoms")
// are again the arch's: at each operand position, the longest piece that
// the arch's grammar reads whole, ending before an operator, a parenthesis
// or a space. No arch is named here; every arch fact is its grammar's.
//
// The operators and their precedence are gdb's (the assembler's, see "Infix
// Ops" in the gas manual), loosest first:
//
//   ||
//   &&
//   +  -  ==  !=  <>  <  <=  >  >=
//   |  &  ^
//   *  /  %  <<  >>
//
// binary and left-associative; `-`, `+`, `~` and `!` are unary. Spaces are
// allowed inside parentheses only (outside them a space ends the spec). A
// parenthesis before the arch's register prefix (`(%rax`) is the arch's
// indirection, as gdb reads it, never a group: `(%al)` stays an error.
// Operands that name symbols (`sym`, `g(%rip)`) are no part of gdb's
// syntax, and a sign before digits is a number's, not an operator.
// A spec the expression reading does not explain either (an unbalanced
// parenthesis, a trailing operator, an unknown register) is an error: the
// expression's own when it got as far as an operator or a parenthesized
// operand (or nested too deeply), otherwise the arch grammar's, as before.
#include "xsdt/arch_port.h"

#include <string>

namespace xsdt::detail {
namespace {

// Deeper nesting (parentheses, unary operators) is refused rather than
// recursed into.
constexpr int kMaxNesting = 64;
// Operands longer than this are not read as expressions.
constexpr std::size_t kMaxExpressionLength = 1024;
// How many pieces of one operand position are offered to the arch.
constexpr int kMaxAtomTries = 64;

enum class Prec { LogicalOr = 1, LogicalAnd, AddCompare, Bitwise, Multiply };

struct BinaryOperator {
  std::string_view text;
  Prec prec;
};

// Longest spellings first, so that `<<` is not read as `<`.
constexpr BinaryOperator kBinaryOperators[] = {
    {"||", Prec::LogicalOr},  {"&&", Prec::LogicalAnd},
    {"<<", Prec::Multiply},   {">>", Prec::Multiply},
    {"==", Prec::AddCompare}, {"!=", Prec::AddCompare},
    {"<>", Prec::AddCompare}, {"<=", Prec::AddCompare},
    {">=", Prec::AddCompare}, {"+", Prec::AddCompare},
    {"-", Prec::AddCompare},  {"<", Prec::AddCompare},
    {">", Prec::AddCompare},  {"|", Prec::Bitwise},
    {"&", Prec::Bitwise},     {"^", Prec::Bitwise},
    {"*", Prec::Multiply},    {"/", Prec::Multiply},
    {"%", Prec::Multiply},
};

bool is_unary_operator(char c) {
  return c == '-' || c == '+' || c == '~' || c == '!';
}

// Where an atom may end: before an operator, a parenthesis or a space.
bool ends_atom(char c) {
  return std::string_view("+-*/%<>=!&|^~() ").find(c) != std::string_view::npos;
}

class ExpressionReader {
public:
  ExpressionReader(std::string_view text, std::size_t origin, Arch arch,
                   const ArgLocation &proto)
      : text_(text), origin_(origin), arch_(arch), proto_(proto) {}

  // Reads the whole operand; fails with the first error.
  void read() {
    read_expression(Prec::LogicalOr);
    if (!done())
      fail_here(peek() == ')' ? "unbalanced ')': no '(' before it"
                              : "expected an operator");
  }

  // Whether the reading got far enough for its error to be the one to
  // report: past an operator, or into a parenthesized operand.
  bool committed() const {
    return !symbol_ && (operators_ > 0 || grouped_atom_ || too_deep_);
  }

  // The result: Symbolic, naming the first register an atom names.
  void fill(ArgLocation &loc) const {
    if (first_base_)
      set_base(loc, *first_base_);
    mark_symbolic(loc, operators_ > 0
                           ? "gdb expression (operators): only gdb evaluates it"
                           : "gdb expression (parentheses): only gdb "
                             "evaluates it");
    loc.expression = true;
  }

private:
  bool done() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::size_t at() const { return origin_ + pos_; }

  // Fails naming the text at the cursor up to the next operator,
  // parenthesis or space (at least one character).
  [[noreturn]] void fail_here(std::string message) const {
    std::size_t end = pos_ + 1;
    while (end < text_.size() && !ends_atom(text_[end]))
      ++end;
    fail(std::move(message), done() ? "" : text_.substr(pos_, end - pos_),
         at());
  }

  void skip_spaces_in_group() {
    if (depth_ > 0)
      while (peek() == ' ')
        ++pos_;
  }

  void enter(std::size_t position) {
    if (++nesting_ > kMaxNesting)
      too_deep_ = true;
    if (too_deep_)
      fail("expression nested too deeply", text_.substr(position, 1),
           origin_ + position);
  }

  // Whether the arch's register prefix (`%`) is at `where`: after '(' it
  // makes the parenthesis the arch's indirection (`(%rax)`), never a group.
  bool starts_register(std::size_t where) const {
    const std::string_view prefix = arch_.descriptor().register_prefix;
    return !prefix.empty() && text_.substr(where).starts_with(prefix);
  }

  const BinaryOperator *binary_operator() const {
    for (const BinaryOperator &op : kBinaryOperators)
      if (text_.substr(pos_).starts_with(op.text))
        return &op;
    return nullptr;
  }

  // operand (op operand)* with every op at least `min` tight.
  void read_expression(Prec min) {
    read_operand();
    for (;;) {
      skip_spaces_in_group();
      const BinaryOperator *op = binary_operator();
      if (!op || op->prec < min)
        return;
      pos_ += op->text.size();
      ++operators_;
      skip_spaces_in_group();
      if (done())
        fail("expected an operand after '" + std::string(op->text) + "'", "",
             at());
      // Left-associative: the right side binds only tighter operators.
      read_expression(static_cast<Prec>(static_cast<int>(op->prec) + 1));
    }
  }

  void read_operand() {
    enter(pos_);
    if (done())
      fail_here("expected an operand");
    Failure atom_error;
    if (read_atom(atom_error)) {
      --nesting_;
      return;
    }
    const char c = peek();
    if (c == '(' && !starts_register(pos_ + 1)) {
      const std::size_t open = pos_;
      ++pos_;
      ++depth_;
      skip_spaces_in_group();
      read_expression(Prec::LogicalOr);
      skip_spaces_in_group();
      if (done())
        fail("unbalanced '(': no ')' after it", "(", origin_ + open);
      if (peek() != ')')
        fail_here("expected an operator or ')'");
      ++pos_;
      --depth_;
    } else if (is_unary_operator(c) &&
               !((c == '-' || c == '+') && is_digit(peek(1)))) {
      // A sign before digits belongs to a number, which the arch's grammar
      // refused (atom_error); anything else is gdb's unary operator.
      ++pos_;
      ++operators_;
      skip_spaces_in_group();
      read_operand();
    } else {
      throw atom_error;
    }
    --nesting_;
  }

  // The longest piece at the cursor that the arch's grammar reads whole,
  // tried from the end of the arch's own reading downwards; on failure,
  // atom_error is the arch's error for the rest of the operand.
  bool read_atom(Failure &atom_error) {
    const std::string_view rest = text_.substr(pos_);
    std::size_t stop = rest.size();
    try {
      parse_piece(rest);
      return take_atom(rest.size());
    } catch (Failure &f) {
      atom_error = std::move(f);
      const std::size_t failed_at = atom_error.error.position;
      if (failed_at >= at() && failed_at - at() < stop)
        stop = failed_at - at();
    }
    int tries = 0;
    for (std::size_t end = stop; end > 0 && tries < kMaxAtomTries; --end) {
      if (end != stop && !ends_atom(rest[end]))
        continue;
      ++tries;
      try {
        parse_piece(rest.substr(0, end));
        return take_atom(end);
      } catch (const Failure &) {
      }
    }
    return false;
  }

  void parse_piece(std::string_view piece) {
    ArgLocation scratch = proto_;
    scratch.operand = piece;
    Lexer lx(piece, at());
    arch_.descriptor().parse_operand(lx, arch_, scratch);
    piece_ = std::move(scratch);
  }

  bool take_atom(std::size_t length) {
    // gdb's expressions name no symbols: an operand with one is no
    // expression, and the arch grammar's error is the one to give.
    if (piece_.kind == LocationKind::Symbolic) {
      symbol_ = true;
      fail("a symbol in a gdb expression", text_.substr(pos_, length), at());
    }
    pos_ += length;
    if (depth_ > 0)
      grouped_atom_ = true;
    if (!first_base_ && piece_.base)
      first_base_ = piece_.base;
    return true;
  }

  std::string_view text_;
  std::size_t origin_;
  Arch arch_;
  const ArgLocation &proto_;
  std::size_t pos_ = 0;
  int depth_ = 0;   // open parentheses
  int nesting_ = 0; // operands being read, for the depth limit
  int operators_ = 0;
  bool grouped_atom_ = false;
  bool too_deep_ = false;
  bool symbol_ = false; // an operand names a symbol: not an expression
  ArgLocation piece_;
  std::optional<RegisterInfo> first_base_;
};

} // namespace

void parse_operand_or_expression(Lexer &lx, Arch arch, ArgLocation &loc) {
  const std::string_view text = lx.text().substr(lx.mark());
  const std::size_t origin = lx.at();
  ArgLocation plain = loc;
  Failure arch_error;
  try {
    arch.descriptor().parse_operand(lx, arch, plain);
    loc = std::move(plain);
    return;
  } catch (Failure &f) {
    arch_error = std::move(f);
  }
  if (text.size() > kMaxExpressionLength)
    throw arch_error;
  ExpressionReader reader(text, origin, arch, loc);
  try {
    reader.read();
  } catch (const Failure &) {
    if (reader.committed())
      throw;
    throw arch_error;
  }
  reader.fill(loc);
}

} // namespace xsdt::detail
