// The provider-file parser: providers, their probes and the probes'
// parameters, from the tokens of lexer.h.
//
//   file      := { provider | declaration | ';' }
//   provider  := 'provider' NAME '{' { probe } '}' [';']
//   probe     := 'probe' NAME '(' params ')' [':' '(' params ')'] [';']
//   params    := [ 'void' | param { ',' param } ]       (at most 12)
//   param     := C type tokens with an optional name (pointers, arrays,
//                function pointers)
//   declaration := ('typedef' | 'struct' | 'union' | 'enum' | ...) ... ';'
//                  skipped with its braces balanced
#ifndef XSDT_DTRACE_PARSER_H
#define XSDT_DTRACE_PARSER_H

#include "lexer.h"
#include "provider.h"

#include <string>
#include <string_view>
#include <vector>

namespace xsdt::dtrace {

// Throws SyntaxError, located at the offending token.
ProviderFile parse(const std::vector<Token> &tokens);

// lex + parse.
ProviderFile parse_provider_file(std::string_view source,
                                 const std::string &file_name);

// A parameter's tokens as one declaration: "const char *path",
// "void (*cb)(int)", "char buf[16]".
std::string join_tokens(const std::vector<Token> &tokens);

} // namespace xsdt::dtrace

#endif
