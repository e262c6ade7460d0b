// Splitting $CC, $CFLAGS and $CPP into words as a POSIX shell (and Python's
// shlex.split, which SystemTap's dtrace uses) does.
#ifndef XSDT_DTRACE_SHELL_WORDS_H
#define XSDT_DTRACE_SHELL_WORDS_H

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::dtrace {

// Words separated by blanks and newlines; '...' quotes literally, "..."
// quotes with \ escaping $ ` " \ and newline, and \ outside quotes escapes
// the next character (backslash-newline joins lines). Throws
// std::invalid_argument on an unterminated quote.
std::vector<std::string> split_shell_words(std::string_view text);

// `word` quoted so that split_shell_words gives it back unchanged.
std::string quote_shell_word(std::string_view word);

} // namespace xsdt::dtrace

#endif
