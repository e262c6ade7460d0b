// Shell-style word splitting: see shell_words.h.
#include "shell_words.h"

#include <cctype>

namespace xsdt::dtrace {

std::vector<std::string> split_shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word)
        words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      size_t end = text.find('\'', i + 1);
      if (end == std::string_view::npos)
        throw std::invalid_argument("unterminated ' quote");
      word.append(text.substr(i + 1, end - i - 1));
      i = end;
      in_word = true;
    } else if (c == '"') {
      for (++i;; ++i) {
        if (i >= text.size())
          throw std::invalid_argument("unterminated \" quote");
        char d = text[i];
        if (d == '"')
          break;
        if (d == '\\' && i + 1 < text.size() &&
            std::string_view("$`\"\\\n").find(text[i + 1]) !=
                std::string_view::npos) {
          if (text[++i] != '\n')
            word += text[i];
        } else {
          word += d;
        }
      }
      in_word = true;
    } else if (c == '\\') {
      if (i + 1 < text.size()) {
        if (text[++i] != '\n') {
          word += text[i];
          in_word = true;
        }
      }
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word)
    words.push_back(word);
  return words;
}

std::string quote_shell_word(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word)
    if (!(std::isalnum(static_cast<unsigned char>(c)) ||
          std::string_view("@%+=:,./_-").find(c) != std::string_view::npos))
      plain = false;
  if (plain)
    return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

} // namespace xsdt::dtrace
