// The provider-file lexer: see lexer.h.
#include "lexer.h"

#include <cctype>
#include <cstdio>

namespace xsdt::dtrace {

std::string to_string(const Location &loc) {
  return loc.file + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
}

SyntaxError::SyntaxError(Location loc, std::string message, std::string notes)
    : std::runtime_error(to_string(loc) + ": error: " + message + notes),
      loc_(std::move(loc)), message_(std::move(message)) {}

namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

constexpr std::string_view punctuation = "{}()[];:,*&.=+-/<>!~%^|?";

class Lexer {
public:
  Lexer(std::string_view src, const std::string &file)
      : src_(src), file_(file), end_{file, 1, 1} {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    if (src_.substr(0, 3) == "\xEF\xBB\xBF") // UTF-8 byte order mark
      pos_ = line_start_ = 3;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        newline();
      } else if (is_blank(c)) {
        ++pos_;
      } else if (c == '\\' && peek(1) == '\n') { // a continued line
        ++pos_;
      } else if (c == '/' && peek(1) == '*') {
        block_comment();
      } else if (c == '/' && peek(1) == '/') {
        rest_of_line();
      } else if (c == '#') {
        if (line_has_token_)
          rest_of_line(); // `#` comment after something on the line
        else
          directive();
      } else {
        tokens.push_back(token());
        line_has_token_ = true;
      }
    }
    tokens.push_back(Token{TokenKind::End, "", end_});
    return tokens;
  }

private:
  char peek(size_t ahead) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  Location here() const {
    return Location{file_, line_, static_cast<int>(pos_ - line_start_) + 1};
  }
  void mark_end() { end_ = here(); }
  void newline() {
    ++pos_;
    ++line_;
    line_start_ = pos_;
    line_has_token_ = false;
  }

  // From `/*` to `*/`, over lines.
  void block_comment() {
    Location start = here();
    pos_ += 2;
    while (pos_ < src_.size()) {
      if (src_[pos_] == '*' && peek(1) == '/') {
        pos_ += 2;
        mark_end();
        return;
      }
      if (src_[pos_] == '\n')
        newline();
      else
        ++pos_;
    }
    throw SyntaxError(start, "unterminated comment");
  }

  // Up to the newline, which the main loop then takes.
  void rest_of_line() {
    while (pos_ < src_.size() && src_[pos_] != '\n')
      ++pos_;
    mark_end();
  }

  // A line whose first non-blank character is `#`: up to its end, with
  // backslash continuations and comments that run over lines, as cpp reads
  // it. A line marker takes effect on the line after it.
  void directive() {
    std::string text;
    ++pos_; // '#'
    while (pos_ < src_.size() && src_[pos_] != '\n') {
      char c = src_[pos_];
      if (c == '\\' &&
          (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
        pos_ += peek(1) == '\r' ? 1 : 0;
        ++pos_;
        newline();
        line_has_token_ = true; // still the directive
      } else if (c == '/' && peek(1) == '*') {
        block_comment();
        text += ' ';
      } else if (c == '/' && peek(1) == '/') {
        rest_of_line();
      } else if (c == '"' || c == '\'') {
        size_t start = pos_;
        skip_literal();
        text.append(src_.substr(start, pos_ - start));
      } else {
        text += c;
        ++pos_;
      }
    }
    mark_end();
    std::optional<std::pair<int, std::optional<std::string>>> marker =
        line_marker(text);
    if (pos_ < src_.size())
      newline();
    if (marker) {
      line_ = marker->first;
      if (marker->second)
        file_ = *marker->second;
    }
  }

  // `# 12 "file.d" 1 3` or `#line 12 "file.d"` (the text after `#`): the
  // line number and the file name, if the directive is one.
  static std::optional<std::pair<int, std::optional<std::string>>>
  line_marker(std::string_view text) {
    size_t i = 0;
    auto blanks = [&] {
      while (i < text.size() && is_blank(text[i]))
        ++i;
    };
    blanks();
    if (text.substr(i, 4) == "line" &&
        (i + 4 == text.size() || is_blank(text[i + 4]))) {
      i += 4;
      blanks();
    }
    if (i == text.size() || !is_digit(text[i]))
      return std::nullopt;
    long number = 0;
    while (i < text.size() && is_digit(text[i])) {
      number = number * 10 + (text[i] - '0');
      if (number > 1000000000)
        return std::nullopt;
      ++i;
    }
    blanks();
    if (i == text.size() || text[i] != '"')
      return std::pair{static_cast<int>(number), std::optional<std::string>{}};
    // The name as cpp quotes it: \\ and \" escaped, other bytes as \ooo.
    std::string name;
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] != '\\' || i + 1 == text.size()) {
        name += text[i];
        continue;
      }
      ++i;
      if (text[i] >= '0' && text[i] <= '7') {
        int value = 0;
        for (int n = 0;
             n < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7';
             ++n, ++i)
          value = value * 8 + (text[i] - '0');
        --i;
        name += static_cast<char>(value);
      } else {
        name += text[i];
      }
    }
    // No file name holds a NUL, so cpp wrote no such marker; taking it
    // would also cut every later diagnostic at the NUL (what() is a C
    // string) and lose its message. The line is skipped like any other.
    if (name.find('\0') != std::string::npos)
      return std::nullopt;
    return std::pair{static_cast<int>(number), std::optional{name}};
  }

  // A string or character literal on one line; pos_ at its quote.
  void skip_literal() {
    Location start = here();
    char quote = src_[pos_++];
    while (pos_ < src_.size() && src_[pos_] != '\n') {
      // A NUL would end up in the diagnostics that quote the token, and
      // what() (a C string) would stop there; no C literal holds one raw.
      if (src_[pos_] == '\0')
        throw SyntaxError(here(), "unexpected byte 0x00 in a literal");
      char c = src_[pos_++];
      // An escaped NUL is a raw NUL all the same (checked above next time).
      if (c == '\\' && pos_ < src_.size() && src_[pos_] != '\n' &&
          src_[pos_] != '\0')
        ++pos_;
      else if (c == quote)
        return;
    }
    throw SyntaxError(start, quote == '"' ? "unterminated string literal"
                                          : "unterminated character literal");
  }

  Token token() {
    Location start = here();
    size_t begin = pos_;
    char c = src_[pos_];
    TokenKind kind;
    if (is_ident_start(c)) {
      while (pos_ < src_.size() && is_ident_char(src_[pos_]))
        ++pos_;
      kind = TokenKind::Identifier;
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      while (pos_ < src_.size()) {
        char d = src_[pos_];
        if ((d == '+' || d == '-') && pos_ > begin &&
            std::string_view("eEpP").find(src_[pos_ - 1]) !=
                std::string_view::npos)
          ++pos_;
        else if (is_ident_char(d) || d == '.')
          ++pos_;
        else
          break;
      }
      kind = TokenKind::Number;
    } else if (c == '"' || c == '\'') {
      skip_literal();
      kind = c == '"' ? TokenKind::String : TokenKind::Char;
    } else if (punctuation.find(c) != std::string_view::npos) {
      ++pos_;
      kind = TokenKind::Punct;
    } else {
      unsigned char u = static_cast<unsigned char>(c);
      char buf[64];
      if (std::isprint(u))
        std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
      else
        std::snprintf(buf, sizeof buf, "unexpected byte 0x%02x", u);
      throw SyntaxError(start, buf);
    }
    mark_end();
    return Token{kind, std::string(src_.substr(begin, pos_ - begin)), start};
  }

  std::string_view src_;
  std::string file_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  bool line_has_token_ = false;
  Location end_;
};

} // namespace

std::vector<Token> lex(std::string_view source, const std::string &file_name) {
  return Lexer(source, file_name).run();
}

} // namespace xsdt::dtrace
