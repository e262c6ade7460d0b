// The provider-file parser: see parser.h.
#include "parser.h"

#include "names.h"

#include <map>
#include <set>
#include <utility>

namespace xsdt::dtrace {

namespace {

// Words that are part of a type, never a parameter's name.
const std::set<std::string, std::less<>> type_words = {
    "void",   "char",     "short",    "int",     "long",       "float",
    "double", "signed",   "unsigned", "_Bool",   "bool",       "_Complex",
    "const",  "volatile", "restrict", "__const", "__restrict", "__restrict__",
    "struct", "union",    "enum",
};
const std::set<std::string, std::less<>> qualifiers = {
    "const", "volatile", "restrict", "__const", "__restrict", "__restrict__"};

// Top-level declarations that a provider file may hold for its types.
const std::set<std::string, std::less<>> declaration_words = {
    "typedef", "struct", "union",  "enum",       "extern",
    "static",  "const",  "inline", "translator", "volatile"};

std::string describe(const Token &t) {
  if (t.kind == TokenKind::End)
    return "end of file";
  return "'" + t.text + "'";
}

bool is_open(const Token &t) {
  return t.kind == TokenKind::Punct &&
         (t.text == "(" || t.text == "[" || t.text == "{");
}
bool is_close(const Token &t) {
  return t.kind == TokenKind::Punct &&
         (t.text == ")" || t.text == "]" || t.text == "}");
}
char closer_of(char open) {
  return open == '(' ? ')' : open == '[' ? ']' : '}';
}

// The index of a parameter's name in its tokens, or -1.
int name_index(const std::vector<Token> &t) {
  auto is_name = [&](size_t i) {
    return t[i].kind == TokenKind::Identifier && !type_words.count(t[i].text);
  };
  // A function pointer or a pointer to an array: the name is the last
  // token of the first parenthesised group, `void (*cb)(int)`.
  for (size_t p = 0; p < t.size(); ++p) {
    if (!t[p].is("("))
      continue;
    int depth = 0;
    for (size_t q = p; q < t.size(); ++q) {
      if (t[q].is("(") || t[q].is("["))
        ++depth;
      else if ((t[q].is(")") || t[q].is("]")) && --depth == 0)
        return q > p + 1 && is_name(q - 1) ? static_cast<int>(q - 1) : -1;
    }
    return -1;
  }
  // Otherwise the last token before any array suffix, when a type
  // precedes it: `int x`, `struct conn *c`, `char buf[16]`; not
  // `struct conn`, `const foo_t` or `unsigned int`.
  size_t k = 0;
  while (k < t.size() && !t[k].is("["))
    ++k;
  if (k < 2 || !is_name(k - 1))
    return -1;
  const std::string &before = t[k - 2].text;
  if (before == "struct" || before == "union" || before == "enum")
    return -1;
  for (size_t j = 0; j + 1 < k; ++j)
    if (!qualifiers.count(t[j].text))
      return static_cast<int>(k - 1);
  return -1;
}

Parameter make_parameter(const std::vector<Token> &tokens) {
  Parameter p;
  p.declaration = join_tokens(tokens);
  p.loc = tokens.front().loc;
  int n = name_index(tokens);
  if (n < 0) {
    p.type = p.declaration;
    return p;
  }
  p.name = tokens[n].text;
  std::vector<Token> type = tokens;
  type.erase(type.begin() + n);
  p.type = join_tokens(type);
  return p;
}

class Parser {
public:
  explicit Parser(const std::vector<Token> &tokens) : t_(tokens) {}

  ProviderFile file() {
    ProviderFile f;
    while (cur().kind != TokenKind::End) {
      if (cur().kind == TokenKind::Identifier && cur().text == "provider")
        f.providers.push_back(provider());
      else if (cur().is(";"))
        ++i_;
      else if (cur().kind == TokenKind::Identifier &&
               declaration_words.count(cur().text))
        skip_declaration();
      else
        fail(cur(), "expected 'provider' or a type declaration, found " +
                        describe(cur()));
    }
    check_names(f);
    return f;
  }

private:
  const Token &cur() const { return t_[i_]; }
  const Token &take() {
    const Token &t = t_[i_];
    if (t.kind != TokenKind::End)
      ++i_;
    return t;
  }
  [[noreturn]] static void fail(const Token &at, const std::string &message,
                                const std::string &notes = "") {
    throw SyntaxError(at.loc, message, notes);
  }

  // Brackets: an opening one is pushed, a closing one must match the last
  // one open.
  void track_nesting(std::vector<const Token *> &open, const Token &t) {
    if (is_open(t)) {
      open.push_back(&t);
    } else if (is_close(t)) {
      if (open.empty() || closer_of(open.back()->text[0]) != t.text[0])
        fail(t, "unmatched '" + t.text + "'");
      open.pop_back();
    }
  }

  // `typedef ... ;`, `struct x { ... };`: up to the `;` outside brackets.
  void skip_declaration() {
    const Token &first = take();
    std::vector<const Token *> open;
    while (true) {
      const Token &t = cur();
      if (t.kind == TokenKind::End)
        fail(t, "unexpected end of file: '" + first.text +
                    "' declaration is not terminated by ';'");
      if (open.empty() && t.kind == TokenKind::Identifier &&
          t.text == "provider")
        fail(t, "expected ';' after the '" + first.text + "' declaration");
      if (open.empty() && t.is(";")) {
        take();
        return;
      }
      track_nesting(open, t);
      take();
    }
  }

  Provider provider() {
    take(); // provider
    if (cur().kind != TokenKind::Identifier)
      fail(cur(),
           "expected provider name after 'provider', found " + describe(cur()));
    Provider p{cur().text, cur().loc, {}};
    take();
    if (!cur().is("{"))
      fail(cur(), "expected '{' after provider name '" + p.name + "', found " +
                      describe(cur()));
    take();
    while (true) {
      const Token &t = cur();
      if (t.kind == TokenKind::End)
        fail(t,
             "unexpected end of file: provider '" + p.name + "' is not closed");
      if (t.is("}")) {
        take();
        break;
      }
      if (t.is(";")) {
        take();
      } else if (t.kind == TokenKind::Identifier && t.text == "probe") {
        p.probes.push_back(probe());
      } else {
        fail(t, "expected 'probe' or '}' in provider '" + p.name + "', found " +
                    describe(t));
      }
    }
    if (cur().is(";"))
      take();
    return p;
  }

  Probe probe() {
    take(); // probe
    if (cur().kind != TokenKind::Identifier)
      fail(cur(),
           "expected probe name after 'probe', found " + describe(cur()));
    Probe p{cur().text, cur().loc, {}, std::nullopt};
    take();
    if (!cur().is("("))
      fail(cur(), "expected '(' after probe name '" + p.name + "'");
    p.parameters = parameters(p.name, true);
    if (cur().is(":")) {
      take();
      if (!cur().is("("))
        fail(cur(), "expected '(' after ':' in probe '" + p.name + "'");
      p.translated = parameters(p.name, false);
    }
    if (cur().is(";"))
      take();
    return p;
  }

  // What cannot begin or be a C type, so that it would reach the header's
  // comment and the compiler as written: a parameter that does not start
  // with a word (`123`, `*p`), and `struct`, `union` or `enum` without
  // their tag. Anything subtler is left to the compiler.
  static void check_type(const std::vector<Token> &tokens,
                         const std::string &probe) {
    const Token &first = tokens.front();
    if (first.kind != TokenKind::Identifier)
      fail(first, "expected a type in a parameter of probe '" + probe +
                      "', found " + describe(first));
    for (size_t k = 0; k < tokens.size(); ++k)
      if ((tokens[k].is("struct") || tokens[k].is("union") ||
           tokens[k].is("enum")) &&
          (k + 1 == tokens.size() ||
           tokens[k + 1].kind != TokenKind::Identifier))
        fail(tokens[k], "expected a tag after '" + tokens[k].text + "'");
  }

  // `( ... )` at cur(): the parameters, split at the commas outside
  // brackets.
  std::vector<Parameter> parameters(const std::string &probe, bool native) {
    take(); // (
    std::vector<std::vector<Token>> groups;
    std::vector<Token> current;
    std::vector<const Token *> open;
    while (true) {
      const Token &t = cur();
      if (t.kind == TokenKind::End)
        fail(t, "unexpected end of file: parameter list of probe '" + probe +
                    "' is not closed");
      if (t.is("{") || t.is("}") || t.is(";") || t.kind == TokenKind::String ||
          t.kind == TokenKind::Char)
        fail(t, "unexpected " + describe(t) + " in parameter list of probe '" +
                    probe + "'");
      if (open.empty() && (t.is(",") || t.is(")"))) {
        if (current.empty() && (t.is(",") || !groups.empty()))
          fail(t, "expected a parameter before '" + t.text + "'");
        if (!current.empty())
          groups.push_back(std::move(current));
        current.clear();
        take();
        if (t.is(")"))
          break;
        continue;
      }
      track_nesting(open, t);
      current.push_back(t);
      take();
    }
    // (void): no parameters.
    if (groups.size() == 1 && groups[0].size() == 1 && groups[0][0].is("void"))
      return {};
    for (const auto &g : groups)
      if (g.size() == 1 && g[0].is("void"))
        fail(g[0],
             "'void' must be the only parameter of probe '" + probe + "'");
    if (native && groups.size() > static_cast<size_t>(max_parameters))
      fail(groups[max_parameters][0],
           "probe '" + probe + "' has " + std::to_string(groups.size()) +
               " parameters; at most " + std::to_string(max_parameters));
    std::vector<Parameter> params;
    for (const auto &g : groups) {
      check_type(g, probe);
      params.push_back(make_parameter(g));
    }
    return params;
  }

  // The same probe twice in a provider, or two probes whose macros would
  // have the same name (`a__b` and `a_b`; provider `p_q` probe `r` and
  // provider `p` probe `q_r`).
  static void check_names(const ProviderFile &f) {
    std::map<std::pair<std::string, std::string>, const Probe *> probes;
    std::map<std::string, std::pair<const Provider *, const Probe *>> macros;
    for (const Provider &pv : f.providers) {
      for (const Probe &pr : pv.probes) {
        auto [seen, fresh] = probes.emplace(std::pair{pv.name, pr.name}, &pr);
        if (!fresh)
          throw SyntaxError(
              pr.loc,
              "duplicate probe '" + pr.name + "' in provider '" + pv.name + "'",
              "\n" + to_string(seen->second->loc) +
                  ": note: previous declaration of '" + pr.name + "' is here");
        std::string macro = macro_name(pv.name, pr.name);
        auto [other, unique] = macros.emplace(macro, std::pair{&pv, &pr});
        if (!unique) {
          const Provider &opv = *other->second.first;
          const Probe &opr = *other->second.second;
          throw SyntaxError(pr.loc,
                            "probe '" + pr.name + "' in provider '" + pv.name +
                                "' has the same macro name " + macro +
                                " as probe '" + opr.name + "' in provider '" +
                                opv.name + "'",
                            "\n" + to_string(opr.loc) + ": note: probe '" +
                                opr.name + "' is declared here");
        }
      }
    }
  }

  const std::vector<Token> &t_;
  size_t i_ = 0;
};

bool space_between(const Token &a, const Token &b) {
  if (b.is(",") || b.is(")") || b.is("]") || b.is("["))
    return false;
  if (a.is("(") || a.is("[") || a.is("*") || a.is("&"))
    return false;
  if (b.is("(") && a.is(")"))
    return false;
  return true;
}

} // namespace

std::string join_tokens(const std::vector<Token> &tokens) {
  std::string out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && space_between(tokens[i - 1], tokens[i]))
      out += ' ';
    out += tokens[i].text;
  }
  return out;
}

ProviderFile parse(const std::vector<Token> &tokens) {
  return Parser(tokens).file();
}

ProviderFile parse_provider_file(std::string_view source,
                                 const std::string &file_name) {
  return parse(lex(source, file_name));
}

} // namespace xsdt::dtrace
