// The tokens of a provider file. Comments (`/* */`, `//`) and `#` lines
// (directives, pragmas, shell-style comments) are skipped; `# LINE "FILE"`
// and `#line LINE "FILE"` markers, as cpp writes them, move the locations
// of what follows to the file and line they name.
#ifndef XSDT_DTRACE_LEXER_H
#define XSDT_DTRACE_LEXER_H

#include "provider.h"

#include <string>
#include <string_view>
#include <vector>

namespace xsdt::dtrace {

enum class TokenKind {
  Identifier, // [A-Za-z_][A-Za-z0-9_]*
  Number,     // a C preprocessing number: 12, 0x1f, 1.5e3
  String,     // "..." with its quotes
  Char,       // '...' with its quotes
  Punct,      // one character of { } ( ) [ ] ; : , * & . = + - / < > etc.
  End,        // end of file
};

struct Token {
  TokenKind kind;
  std::string text;
  Location loc;

  bool is(std::string_view punct_or_word) const {
    return (kind == TokenKind::Punct || kind == TokenKind::Identifier) &&
           text == punct_or_word;
  }
};

// The tokens of `source`, ending with one End token whose location is just
// after the last thing in the file (for "unexpected end of file" errors).
// Throws SyntaxError on an unterminated comment or literal and on a
// character that no provider file contains.
std::vector<Token> lex(std::string_view source, const std::string &file_name);

} // namespace xsdt::dtrace

#endif
