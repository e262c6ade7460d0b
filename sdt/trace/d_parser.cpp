// The D subset's lexer, parser and checks (d_program.h).
#include "d_format.h"
#include "d_program.h"

#include <cctype>
#include <charconv>
#include <map>

namespace xsdt::trace {

ProgramError::ProgramError(const std::string &source_name, Location loc,
                           const std::string &message)
    : std::runtime_error(source_name + ":" + std::to_string(loc.line) + ":" +
                         std::to_string(loc.column) + ": error: " + message),
      loc_(loc), message_(message) {}

bool Program::is_special(std::string_view description) const {
  return description == "BEGIN" || description == "END";
}

namespace {

struct Token {
  enum class Kind { Identifier, Number, String, Aggregation, Punct, End };
  Kind kind;
  std::string text; // a string's text without quotes, escapes resolved
  std::int64_t number = 0;
  Location loc;

  bool is(std::string_view punct) const {
    return kind == Kind::Punct && text == punct;
  }
};

// D's keywords and functions that this subset refuses by name, each with
// what to write instead where there is something.
const std::map<std::string, std::string, std::less<>> &refused_words() {
  static const std::map<std::string, std::string, std::less<>> words = {
      {"copyinstr", "read a C string with stringof(argN): the probes run in "
                    "the traced process, so there is nothing to copy in"},
      {"copyin", ""},
      {"self", "thread-local variables are not supported"},
      {"this", "clause-local variables are not supported"},
      {"speculation", ""},
      {"speculate", ""},
      {"commit", ""},
      {"discard", ""},
      {"ustack", ""},
      {"stack", ""},
      {"jstack", ""},
      {"system", ""},
      {"raise", ""},
      {"stop", ""},
      {"chill", ""},
      {"breakpoint", ""},
      {"panic", ""},
      {"copyout", ""},
      {"copyoutstr", ""},
      {"alloca", ""},
      {"strlen", ""},
      {"strjoin", ""},
      {"basename", ""},
      {"dirname", ""},
      {"llquantize", ""},
      {"stddev", ""},
      {"trunc", ""},
      {"clear", ""},
      {"denormalize", ""},
      {"normalize", ""},
      {"printm", ""},
      {"tracemem", ""},
      {"freopen", ""},
      {"ftruncate", ""},
      {"setopt", ""},
      {"walltimestamp", ""},
      {"vtimestamp", ""},
      {"uregs", ""},
      {"args", "typed args[] are not supported: use arg0..arg11"},
      {"execname", ""},
      {"curthread", ""},
      {"ppid", ""},
      {"uid", ""},
      {"errno", ""},
      {"inline", ""},
      {"typedef", ""},
      {"struct", ""},
      {"union", ""},
      {"enum", ""},
      {"sizeof", ""},
      {"offsetof", ""},
      {"translator", ""},
      {"provider", "provider definitions belong to xsdt-dtrace, not to a "
                   "tracing program"},
      {"pragma", ""},
  };
  return words;
}

constexpr int kMaxArgs = 12; // XSDT_MAX_ARGS

class Parser {
public:
  Parser(std::string_view source, const std::string &name)
      : src_(source), name_(name) {}

  Program run() {
    skip_space();
    while (pos_ < src_.size()) {
      parse_clause();
      skip_space();
    }
    if (program_.clauses.empty())
      fail(here(), "the program has no clause (write e.g. "
                   "'provider:::name { trace(arg0); }')");
    return std::move(program_);
  }

private:
  std::string_view src_;
  const std::string &name_;
  std::size_t pos_ = 0;
  int line_ = 1, column_ = 1;
  Token token_{Token::Kind::End, "", 0, {}};
  Program program_;

  [[noreturn]] void fail(Location loc, const std::string &message) const {
    throw ProgramError(name_, loc, message);
  }

  Location here() const { return {line_, column_}; }

  char peek_char(std::size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }

  void advance_char() {
    if (src_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }

  void skip_space() {
    for (;;) {
      while (pos_ < src_.size() &&
             std::isspace(static_cast<unsigned char>(src_[pos_])))
        advance_char();
      if (peek_char() == '/' && peek_char(1) == '*') {
        Location start = here();
        advance_char();
        advance_char();
        while (pos_ < src_.size() &&
               !(peek_char() == '*' && peek_char(1) == '/'))
          advance_char();
        if (pos_ >= src_.size())
          fail(start, "unterminated comment");
        advance_char();
        advance_char();
      } else if (peek_char() == '/' && peek_char(1) == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n')
          advance_char();
      } else if (peek_char() == '#' && column_ == 1) {
        // A #! line or a preprocessor line: xsdt-trace runs no cpp.
        Location start = here();
        std::size_t end = src_.find('\n', pos_);
        std::string_view line = src_.substr(pos_, end == std::string_view::npos
                                                      ? std::string_view::npos
                                                      : end - pos_);
        if (!line.starts_with("#!"))
          fail(start, "preprocessor lines are not supported (xsdt-trace "
                      "runs no C preprocessor)");
        while (pos_ < src_.size() && src_[pos_] != '\n')
          advance_char();
      } else {
        return;
      }
    }
  }

  // ---- tokens ---------------------------------------------------------------

  void next() {
    skip_space();
    Token t{Token::Kind::End, "", 0, here()};
    if (pos_ >= src_.size()) {
      token_ = t;
      return;
    }
    char c = peek_char();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      t.kind = Token::Kind::Identifier;
      while (std::isalnum(static_cast<unsigned char>(peek_char())) ||
             peek_char() == '_') {
        t.text += peek_char();
        advance_char();
      }
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Token::Kind::Number;
      std::string digits;
      while (std::isalnum(static_cast<unsigned char>(peek_char())) ||
             peek_char() == '.') {
        digits += peek_char();
        advance_char();
      }
      t.text = digits;
      t.number = parse_number(digits, t.loc);
    } else if (c == '"') {
      t.kind = Token::Kind::String;
      t.text = lex_string(t.loc);
    } else if (c == '\'') {
      fail(t.loc, "character constants are not supported");
    } else if (c == '@') {
      t.kind = Token::Kind::Aggregation;
      advance_char();
      while (std::isalnum(static_cast<unsigned char>(peek_char())) ||
             peek_char() == '_') {
        t.text += peek_char();
        advance_char();
      }
    } else {
      t.kind = Token::Kind::Punct;
      static constexpr std::string_view kTwo[] = {"==", "!=", "<=", ">=", "<<",
                                                  ">>", "&&", "||", "++", "--",
                                                  "+=", "-=", "->", "^^"};
      std::string_view rest = src_.substr(pos_);
      for (std::string_view op : kTwo) {
        if (rest.starts_with(op)) {
          t.text = op;
          break;
        }
      }
      if (t.text.empty())
        t.text = std::string(1, c);
      if (t.text == "++" || t.text == "--" || t.text == "+=" ||
          t.text == "-=" || t.text == "->" || t.text == "^^")
        fail(t.loc, "'" + t.text + "' is not supported");
      static constexpr std::string_view kOne = "{}()[];,:?/+-*%<>=!~&|^";
      if (t.text.size() == 1 && kOne.find(c) == std::string_view::npos)
        fail(t.loc, std::string("unexpected character '") + c + "'");
      for (std::size_t i = 0; i < t.text.size(); ++i)
        advance_char();
    }
    token_ = t;
  }

  std::int64_t parse_number(const std::string &digits, Location loc) const {
    std::string_view body = digits;
    int base = 10;
    if (body.size() > 1 && body[0] == '0' &&
        (body[1] == 'x' || body[1] == 'X')) {
      base = 16;
      body.remove_prefix(2);
    } else if (body.size() > 1 && body[0] == '0') {
      base = 8;
      body.remove_prefix(1);
    }
    while (!body.empty() && (body.back() == 'u' || body.back() == 'U' ||
                             body.back() == 'l' || body.back() == 'L'))
      body.remove_suffix(1);
    std::uint64_t value = 0;
    auto [end, ec] =
        std::from_chars(body.data(), body.data() + body.size(), value, base);
    if (body.empty() || ec != std::errc() || end != body.data() + body.size())
      fail(loc, "'" + digits +
                    "' is not an integer constant (floating "
                    "point is not supported)");
    return static_cast<std::int64_t>(value);
  }

  std::string lex_string(Location start) {
    std::string text;
    advance_char(); // the opening quote
    for (;;) {
      if (pos_ >= src_.size() || peek_char() == '\n')
        fail(start, "unterminated string");
      char c = peek_char();
      advance_char();
      if (c == '"')
        return text;
      if (c != '\\') {
        text += c;
        continue;
      }
      if (pos_ >= src_.size())
        fail(start, "unterminated string");
      char e = peek_char();
      Location escape = here();
      advance_char();
      switch (e) {
      case 'n':
        text += '\n';
        break;
      case 't':
        text += '\t';
        break;
      case 'r':
        text += '\r';
        break;
      case '0':
        text += '\0';
        break;
      case 'a':
        text += '\a';
        break;
      case 'b':
        text += '\b';
        break;
      case 'f':
        text += '\f';
        break;
      case 'v':
        text += '\v';
        break;
      case '\\':
        text += '\\';
        break;
      case '"':
        text += '"';
        break;
      case '\'':
        text += '\'';
        break;
      default:
        fail(escape, std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  void expect(std::string_view punct, const char *what) {
    if (!token_.is(punct))
      fail(token_.loc, std::string("expected '") + std::string(punct) + "' " +
                           what + ", found " + describe(token_));
    next();
  }

  static std::string describe(const Token &t) {
    switch (t.kind) {
    case Token::Kind::End:
      return "the end of the program";
    case Token::Kind::String:
      return "a string";
    case Token::Kind::Number:
      return "'" + t.text + "'";
    case Token::Kind::Aggregation:
      return "'@" + t.text + "'";
    default:
      return "'" + t.text + "'";
    }
  }

  // ---- clauses
  // ----------------------------------------------------------------

  // A probe description is read as text, as dtrace(1) lexes it: up to four
  // ':'-separated parts of name and glob characters.
  std::string probe_description(Location *loc) {
    skip_space();
    *loc = here();
    std::string text;
    auto part_char = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
             c == '-' || c == '.' || c == '*' || c == '?' || c == '[' ||
             c == ']' || c == '!' || c == ':' || c == '$';
    };
    while (pos_ < src_.size() && part_char(peek_char())) {
      text += peek_char();
      advance_char();
    }
    if (text.empty())
      fail(*loc, pos_ >= src_.size()
                     ? "expected a probe description, found the end of the "
                       "program"
                     : std::string("expected a probe description, found '") +
                           peek_char() + "'");
    std::size_t parts = 1;
    for (char c : text)
      parts += c == ':';
    if (parts > 4)
      fail(*loc, "probe description '" + text +
                     "' has more than four parts (provider:module:function:"
                     "name)");
    if (text.find('$') != std::string::npos)
      fail(*loc, "macro arguments ($1, $target) are not supported in probe "
                 "descriptions");
    if ((text == "BEGIN" || text == "END") && parts != 1)
      fail(*loc, "'" + text + "' takes no other parts");
    if (text == "ERROR" || text.starts_with("profile") ||
        text.starts_with("tick-") || text.starts_with("syscall:") ||
        text.starts_with("fbt:") || text.starts_with("pid"))
      fail(*loc, "probe '" + text +
                     "' is not a user probe: xsdt-trace traces the stapsdt "
                     "and SDT probes of the program, BEGIN and END");
    return text;
  }

  void parse_clause() {
    Clause clause;
    Location loc;
    clause.probes.push_back(probe_description(&loc));
    clause.loc = loc;
    skip_space();
    while (peek_char() == ',') {
      advance_char();
      clause.probes.push_back(probe_description(&loc));
      skip_space();
    }
    next();
    if (token_.is("/")) {
      next();
      predicate_ = true;
      clause.predicate = expression();
      predicate_ = false;
      require_int(clause.predicate, "a predicate");
      if (!token_.is("/"))
        fail(token_.loc,
             "expected '/' after the predicate, found " + describe(token_));
      next();
    }
    if (!token_.is("{"))
      fail(token_.loc, "expected '{' to start the clause's actions, found " +
                           describe(token_));
    next();
    while (!token_.is("}")) {
      if (token_.kind == Token::Kind::End)
        fail(token_.loc, "expected '}' to end the clause, found the end of "
                         "the program");
      if (token_.is(";")) {
        next();
        continue;
      }
      clause.actions.push_back(statement());
      if (!token_.is(";") && !token_.is("}"))
        fail(token_.loc,
             "expected ';' or '}' after the action, found " + describe(token_));
    }
    // The closing brace: the next clause's description is read as text.
    program_.clauses.push_back(std::move(clause));
  }

  // ---- actions
  // ----------------------------------------------------------------

  int add_action(Action action) {
    program_.actions.push_back(std::move(action));
    return static_cast<int>(program_.actions.size()) - 1;
  }

  int statement() {
    Action action{};
    action.loc = token_.loc;
    if (token_.kind == Token::Kind::Aggregation)
      return aggregate_statement();
    if (token_.kind != Token::Kind::Identifier)
      fail(token_.loc, "expected an action, found " + describe(token_));
    std::string word = token_.text;
    if (word == "printf") {
      action.kind = Action::Kind::Printf;
      next();
      expect("(", "after printf");
      if (token_.kind != Token::Kind::String)
        fail(token_.loc, "printf's first argument must be a string literal");
      action.format = token_.text;
      Location format_loc = token_.loc;
      next();
      while (token_.is(",")) {
        next();
        action.arguments.push_back(expression());
      }
      expect(")", "to end printf's arguments");
      check_printf(action, format_loc);
    } else if (word == "trace") {
      action.kind = Action::Kind::Trace;
      next();
      expect("(", "after trace");
      action.arguments.push_back(expression());
      expect(")", "to end trace's argument");
    } else if (word == "exit") {
      action.kind = Action::Kind::Exit;
      next();
      expect("(", "after exit");
      action.arguments.push_back(expression());
      require_int(action.arguments.back(), "exit's status");
      expect(")", "to end exit's argument");
    } else if (word == "printa") {
      action.kind = Action::Kind::Printa;
      next();
      expect("(", "after printa");
      Location format_loc{};
      bool has_format = false;
      if (token_.kind == Token::Kind::String) {
        action.format = token_.text;
        format_loc = token_.loc;
        has_format = true;
        next();
        expect(",", "after printa's format");
      }
      if (token_.kind != Token::Kind::Aggregation)
        fail(token_.loc,
             "printa takes an aggregation (@name), found " + describe(token_));
      Location agg_loc = token_.loc;
      action.aggregation = find_aggregation(token_.text);
      if (action.aggregation < 0)
        fail(agg_loc, "printa of @" + token_.text +
                          ", which no clause before it assigns");
      next();
      expect(")", "to end printa's arguments");
      if (has_format)
        check_printa_format(action, format_loc);
    } else if (refused_words().contains(word)) {
      refuse(word, token_.loc);
    } else {
      fail(token_.loc, "'" + word +
                           "' is not an action xsdt-trace supports (printf, "
                           "trace, printa, exit, @aggregation = ...)");
    }
    return add_action(std::move(action));
  }

  [[noreturn]] void refuse(const std::string &word, Location loc) const {
    const std::string &hint = refused_words().find(word)->second;
    fail(loc, "'" + word + "' is not supported by xsdt-trace" +
                  (hint.empty() ? "" : ": " + hint));
  }

  int find_aggregation(const std::string &name) const {
    for (std::size_t i = 0; i < program_.aggregations.size(); ++i)
      if (program_.aggregations[i].name == name)
        return static_cast<int>(i);
    return -1;
  }

  int aggregate_statement() {
    Action action{};
    action.kind = Action::Kind::Aggregate;
    action.loc = token_.loc;
    std::string name = token_.text;
    next();
    std::vector<Type> key_types;
    if (token_.is("[")) {
      next();
      for (;;) {
        action.keys.push_back(expression());
        key_types.push_back(program_.exprs[action.keys.back()].type);
        if (!token_.is(","))
          break;
        next();
      }
      expect("]", "to end the aggregation's keys");
    }
    if (token_.is("+") || token_.is("-"))
      fail(token_.loc, "an aggregation is only assigned with '='");
    expect("=", "after the aggregation");
    if (token_.kind != Token::Kind::Identifier)
      fail(token_.loc, "expected an aggregating function (count, sum, min, "
                       "max, avg, quantize, lquantize), found " +
                           describe(token_));
    Location function_loc = token_.loc;
    static const std::map<std::string, AggregatingFunction, std::less<>>
        functions = {{"count", AggregatingFunction::Count},
                     {"sum", AggregatingFunction::Sum},
                     {"min", AggregatingFunction::Min},
                     {"max", AggregatingFunction::Max},
                     {"avg", AggregatingFunction::Avg},
                     {"quantize", AggregatingFunction::Quantize},
                     {"lquantize", AggregatingFunction::LQuantize}};
    auto found = functions.find(token_.text);
    if (found == functions.end()) {
      if (refused_words().contains(token_.text))
        refuse(token_.text, function_loc);
      fail(function_loc, "'" + token_.text +
                             "' is not an aggregating function xsdt-trace "
                             "supports (count, sum, min, max, avg, quantize, "
                             "lquantize)");
    }
    AggregatingFunction function = found->second;
    next();
    expect("(", "after the aggregating function");
    Aggregation agg;
    agg.name = name;
    agg.function = function;
    agg.keys = key_types;
    agg.first_use = action.loc;
    if (function == AggregatingFunction::Count) {
      if (!token_.is(")"))
        fail(token_.loc, "count() takes no argument");
    } else {
      action.arguments.push_back(expression());
      require_int(action.arguments.back(), "an aggregating function's value");
      if (function == AggregatingFunction::LQuantize) {
        std::int64_t range[3] = {0, 0, 1};
        for (int i = 0; i < 3; ++i) {
          if (i == 2 && !token_.is(","))
            break; // the step defaults to 1
          expect(",", "before lquantize's lower bound, upper bound and step");
          Location at = token_.loc;
          int e = expression();
          if (program_.exprs[e].kind != Expr::Kind::Int)
            fail(at, "lquantize's bounds and step must be integer constants");
          range[i] = program_.exprs[e].value;
        }
        agg.lower = range[0];
        agg.upper = range[1];
        agg.step = range[2];
        if (agg.step <= 0 || agg.upper <= agg.lower ||
            (agg.upper - agg.lower) / agg.step > 4096)
          fail(function_loc, "lquantize needs lower < upper and a step > 0 "
                             "giving at most 4096 buckets");
      }
    }
    expect(")", "to end the aggregating function's arguments");
    int existing = find_aggregation(name);
    if (existing < 0) {
      program_.aggregations.push_back(agg);
      action.aggregation = static_cast<int>(program_.aggregations.size()) - 1;
    } else {
      const Aggregation &old = program_.aggregations[existing];
      bool same = old.function == agg.function && old.keys == agg.keys &&
                  old.lower == agg.lower && old.upper == agg.upper &&
                  old.step == agg.step;
      if (!same)
        fail(action.loc, "@" + name +
                             " is used with another function, keys or range "
                             "than at line " +
                             std::to_string(old.first_use.line) + ", column " +
                             std::to_string(old.first_use.column));
      action.aggregation = existing;
    }
    return add_action(std::move(action));
  }

  void check_printf(const Action &action, Location format_loc) const {
    std::vector<Conversion> conversions;
    std::string problem;
    if (!parse_format(action.format, &conversions, &problem))
      fail(format_loc, "printf format: " + problem);
    if (conversions.size() != action.arguments.size())
      fail(action.loc,
           "printf's format has " + std::to_string(conversions.size()) +
               " conversions for " + std::to_string(action.arguments.size()) +
               " arguments");
    for (std::size_t i = 0; i < conversions.size(); ++i) {
      const Expr &e = program_.exprs[action.arguments[i]];
      if (conversions[i].wants != e.type)
        fail(e.loc, std::string("printf's conversion %") +
                        conversions[i].letter + " wants " +
                        (conversions[i].wants == Type::String ? "a string"
                                                              : "an integer") +
                        ", but argument " + std::to_string(i + 1) + " is " +
                        (e.type == Type::String ? "a string" : "an integer"));
    }
  }

  void check_printa_format(const Action &action, Location format_loc) const {
    std::vector<Conversion> conversions;
    std::string problem;
    if (!parse_format(action.format, &conversions, &problem))
      fail(format_loc, "printa format: " + problem);
    const Aggregation &agg = program_.aggregations[action.aggregation];
    // The keys, then the value: %@d (or any integer conversion) for it.
    if (conversions.size() != agg.keys.size() + 1 &&
        conversions.size() != agg.keys.size())
      fail(format_loc,
           "printa's format has " + std::to_string(conversions.size()) +
               " conversions; @" + agg.name + " has " +
               std::to_string(agg.keys.size()) + " keys and a value");
    for (std::size_t i = 0; i < conversions.size(); ++i) {
      Type wants = i < agg.keys.size() ? agg.keys[i] : Type::Int;
      if (conversions[i].wants != wants ||
          (i == agg.keys.size()) != conversions[i].aggregation)
        fail(format_loc,
             "printa's conversion " + std::to_string(i + 1) +
                 " does not fit @" + agg.name +
                 " (its keys' conversions, then %@d for its value)");
    }
  }

  // ---- expressions
  // ------------------------------------------------------------

  int add_expr(Expr e) {
    program_.exprs.push_back(std::move(e));
    return static_cast<int>(program_.exprs.size()) - 1;
  }

  void require_int(int e, const char *what) const {
    if (program_.exprs[e].type != Type::Int)
      fail(program_.exprs[e].loc, std::string(what) + " must be an integer");
  }

  int expression() {
    int condition = binary(0);
    if (!token_.is("?"))
      return condition;
    Location loc = token_.loc;
    require_int(condition, "a condition");
    next();
    int yes = expression();
    expect(":", "in a ?: expression");
    int no = expression();
    if (program_.exprs[yes].type != program_.exprs[no].type)
      fail(loc, "the two branches of ?: have different types");
    Expr e{};
    e.kind = Expr::Kind::Ternary;
    e.type = program_.exprs[yes].type;
    e.loc = loc;
    e.operands[0] = condition;
    e.operands[1] = yes;
    e.operands[2] = no;
    return add_expr(std::move(e));
  }

  struct BinaryOp {
    std::string_view text;
    Op op;
    int precedence;
  };

  static const BinaryOp *binary_op(const Token &t) {
    static constexpr BinaryOp kOps[] = {
        {"||", Op::LogicalOr, 1},    {"&&", Op::LogicalAnd, 2},
        {"|", Op::BitOr, 3},         {"^", Op::BitXor, 4},
        {"&", Op::BitAnd, 5},        {"==", Op::Equal, 6},
        {"!=", Op::NotEqual, 6},     {"<", Op::Less, 7},
        {"<=", Op::LessEqual, 7},    {">", Op::Greater, 7},
        {">=", Op::GreaterEqual, 7}, {"<<", Op::ShiftLeft, 8},
        {">>", Op::ShiftRight, 8},   {"+", Op::Add, 9},
        {"-", Op::Sub, 9},           {"*", Op::Mul, 10},
        {"/", Op::Div, 10},          {"%", Op::Mod, 10},
    };
    if (t.kind != Token::Kind::Punct)
      return nullptr;
    for (const BinaryOp &op : kOps)
      if (t.text == op.text)
        return &op;
    return nullptr;
  }

  // Precedence climbing. A '/' ends a predicate, so inside one a division
  // needs parentheses; dtrace(1) has the same rule.
  int binary(int min_precedence) {
    int left = unary();
    for (;;) {
      const BinaryOp *op = binary_op(token_);
      if (!op || op->precedence <= min_precedence ||
          (op->op == Op::Div && in_predicate_top()))
        return left;
      Location loc = token_.loc;
      next();
      int right = binary(op->precedence);
      left = make_binary(op->op, left, right, loc);
    }
  }

  // Set while the top level of a predicate is parsed (no parentheses open).
  int paren_depth_ = 0;
  bool predicate_ = false;
  bool in_predicate_top() const { return predicate_ && paren_depth_ == 0; }

  int make_binary(Op op, int left, int right, Location loc) {
    Type lt = program_.exprs[left].type, rt = program_.exprs[right].type;
    bool comparison = op == Op::Less || op == Op::LessEqual ||
                      op == Op::Greater || op == Op::GreaterEqual ||
                      op == Op::Equal || op == Op::NotEqual;
    if (comparison) {
      if (lt != rt)
        fail(loc, "comparing a string with an integer");
    } else if (lt != Type::Int || rt != Type::Int) {
      fail(loc, "this operator takes integers, not strings");
    }
    Expr e{};
    e.kind = Expr::Kind::Binary;
    e.type = Type::Int;
    e.loc = loc;
    e.op = op;
    e.operands[0] = left;
    e.operands[1] = right;
    return add_expr(std::move(e));
  }

  int unary() {
    Location loc = token_.loc;
    Op op;
    if (token_.is("-"))
      op = Op::Negate;
    else if (token_.is("!"))
      op = Op::Not;
    else if (token_.is("~"))
      op = Op::Complement;
    else if (token_.is("+")) {
      next();
      return unary();
    } else if (token_.is("*") || token_.is("&"))
      fail(loc, "pointers are not supported (read a C string with "
                "stringof(argN))");
    else
      return primary();
    next();
    int operand = unary();
    require_int(operand, "the operand of a unary operator");
    if (program_.exprs[operand].kind == Expr::Kind::Int) {
      // A constant stays one (lquantize's bounds may be negative).
      std::int64_t &v = program_.exprs[operand].value;
      v = op == Op::Negate
              ? static_cast<std::int64_t>(-static_cast<std::uint64_t>(v))
          : op == Op::Not ? !v
                          : ~v;
      program_.exprs[operand].loc = loc;
      return operand;
    }
    Expr e{};
    e.kind = Expr::Kind::Unary;
    e.loc = loc;
    e.op = op;
    e.operands[0] = operand;
    return add_expr(std::move(e));
  }

  int primary() {
    Token t = token_;
    Expr e{};
    e.loc = t.loc;
    switch (t.kind) {
    case Token::Kind::Number:
      next();
      e.kind = Expr::Kind::Int;
      e.value = t.number;
      return add_expr(std::move(e));
    case Token::Kind::String:
      next();
      e.kind = Expr::Kind::String;
      e.type = Type::String;
      e.text = t.text;
      return add_expr(std::move(e));
    case Token::Kind::Punct:
      if (t.is("(")) {
        next();
        ++paren_depth_;
        int inner = expression();
        --paren_depth_;
        expect(")", "to close the parenthesis");
        return inner;
      }
      if (t.is("["))
        fail(t.loc, "arrays are not supported");
      break;
    case Token::Kind::Aggregation:
      fail(t.loc, "an aggregation cannot be read in an expression");
    case Token::Kind::Identifier:
      return identifier(t);
    case Token::Kind::End:
      break;
    }
    fail(t.loc, "expected an expression, found " + describe(t));
  }

  int identifier(const Token &t) {
    Expr e{};
    e.loc = t.loc;
    next();
    if (t.text == "stringof") {
      expect("(", "after stringof");
      ++paren_depth_;
      int operand = expression();
      --paren_depth_;
      require_int(operand, "stringof's operand (an address)");
      expect(")", "to end stringof's argument");
      e.kind = Expr::Kind::StringOf;
      e.type = Type::String;
      e.operands[0] = operand;
      return add_expr(std::move(e));
    }
    e.kind = Expr::Kind::Builtin;
    static const std::map<std::string, std::pair<Builtin, Type>, std::less<>>
        builtins = {{"probeprov", {Builtin::ProbeProv, Type::String}},
                    {"probemod", {Builtin::ProbeMod, Type::String}},
                    {"probefunc", {Builtin::ProbeFunc, Type::String}},
                    {"probename", {Builtin::ProbeName, Type::String}},
                    {"tid", {Builtin::Tid, Type::Int}},
                    {"pid", {Builtin::Pid, Type::Int}},
                    {"timestamp", {Builtin::Timestamp, Type::Int}}};
    if (auto found = builtins.find(t.text); found != builtins.end()) {
      e.builtin = found->second.first;
      e.type = found->second.second;
      return add_expr(std::move(e));
    }
    if (t.text.size() > 3 && t.text.starts_with("arg")) {
      std::string_view digits = std::string_view(t.text).substr(3);
      int n = 0;
      auto [end, ec] =
          std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (ec == std::errc() && end == digits.data() + digits.size() &&
          (digits.size() == 1 || digits[0] != '0')) {
        if (n >= kMaxArgs)
          fail(t.loc, "'" + t.text + "': a probe has at most " +
                          std::to_string(kMaxArgs) + " arguments (arg0..arg" +
                          std::to_string(kMaxArgs - 1) + ")");
        e.builtin = Builtin::Arg;
        e.value = n;
        return add_expr(std::move(e));
      }
    }
    if (refused_words().contains(t.text))
      refuse(t.text, t.loc);
    if (token_.is("("))
      fail(t.loc, "'" + t.text + "' is not a function xsdt-trace supports");
    fail(t.loc, "'" + t.text +
                    "' is not a variable xsdt-trace knows (variables of "
                    "your own are not supported; the built-ins are arg0.."
                    "arg11, probeprov, probemod, probefunc, probename, tid, "
                    "pid, timestamp)");
  }
};

} // namespace

Program parse_program(std::string_view source, const std::string &source_name) {
  Parser parser(source, source_name);
  return parser.run();
}

} // namespace xsdt::trace
