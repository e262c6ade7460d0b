// The provider-file parser: each construct that real provider files use
// (PostgreSQL, MySQL, Node, Python, glib, Ruby write these) parses to the
// right providers, probes, parameter counts and names; each malformed file
// is refused at FILE:LINE:COL of the offending token.
#include "parser.h"

#include <gtest/gtest.h>

using namespace xsdt::dtrace;

namespace {

ProviderFile parse_ok(const std::string &source) {
  try {
    return parse_provider_file(source, "test.d");
  } catch (const SyntaxError &e) {
    ADD_FAILURE() << e.what();
    return {};
  }
}

// The first line of the diagnostic: "FILE:LINE:COL: error: MESSAGE".
std::string parse_error(const std::string &source,
                        const std::string &file = "test.d") {
  try {
    parse_provider_file(source, file);
  } catch (const SyntaxError &e) {
    std::string all = e.what();
    return all.substr(0, all.find('\n'));
  }
  ADD_FAILURE() << "parsed without error:\n" << source;
  return "";
}

std::vector<std::string> names_of(const std::vector<Parameter> &params) {
  std::vector<std::string> names;
  for (const Parameter &p : params)
    names.push_back(p.name);
  return names;
}

using Strings = std::vector<std::string>;

} // namespace

TEST(Parser, SeveralProvidersWithTheirProbes) {
  ProviderFile f =
      parse_ok("provider httpd {\n"
               "  probe request__start(int fd, const char *path);\n"
               "  probe request__done(int);\n"
               "};\n"
               "provider cache {\n"
               "  probe hit();\n"
               "};\n");
  ASSERT_EQ(f.providers.size(), 2u);
  EXPECT_EQ(f.providers[0].name, "httpd");
  ASSERT_EQ(f.providers[0].probes.size(), 2u);
  EXPECT_EQ(f.providers[0].probes[0].name, "request__start");
  EXPECT_EQ(f.providers[0].probes[0].parameters.size(), 2u);
  EXPECT_EQ(f.providers[0].probes[1].name, "request__done");
  EXPECT_EQ(f.providers[0].probes[1].parameters.size(), 1u);
  EXPECT_EQ(f.providers[1].name, "cache");
  ASSERT_EQ(f.providers[1].probes.size(), 1u);
  EXPECT_EQ(f.providers[1].probes[0].name, "hit");
  EXPECT_TRUE(f.providers[1].probes[0].parameters.empty());
}

TEST(Parser, LocationsOfProvidersAndProbes) {
  ProviderFile f = parse_ok("\n\tprovider p {\n  probe a();\n}\n");
  ASSERT_EQ(f.providers.size(), 1u);
  EXPECT_EQ(to_string(f.providers[0].loc), "test.d:2:11");
  EXPECT_EQ(to_string(f.providers[0].probes[0].loc), "test.d:3:9");
}

TEST(Parser, EmptyAndVoidParameterListsHaveNoParameters) {
  ProviderFile f = parse_ok("provider lamp {\n"
                            "  probe off(void);\n"
                            "  probe on();\n"
                            "  probe ptr(void *);\n"
                            "  probe pptr(void **p);\n"
                            "};\n");
  const auto &probes = f.providers.at(0).probes;
  EXPECT_EQ(probes.at(0).parameters.size(), 0u);
  EXPECT_EQ(probes.at(1).parameters.size(), 0u);
  ASSERT_EQ(probes.at(2).parameters.size(), 1u);
  EXPECT_EQ(probes[2].parameters[0].type, "void *");
  EXPECT_EQ(probes[2].parameters[0].name, "");
  ASSERT_EQ(probes.at(3).parameters.size(), 1u);
  EXPECT_EQ(probes[3].parameters[0].type, "void **");
  EXPECT_EQ(probes[3].parameters[0].name, "p");
}

TEST(Parser, TwelveParametersAreAllowed) {
  ProviderFile f =
      parse_ok("provider c { probe a12(int, int, int, int, int, int, int, "
               "int, int, int, int, long long); };");
  EXPECT_EQ(f.providers.at(0).probes.at(0).parameters.size(), 12u);
  EXPECT_EQ(f.providers[0].probes[0].parameters[11].type, "long long");
}

TEST(Parser, TypesAndNames) {
  ProviderFile f = parse_ok(
      "provider t {\n"
      "  probe a(const char *path, unsigned long long, struct conn *c,\n"
      "          struct conn, uintptr_t, char buf[16], char [4]);\n"
      "  probe b(const foo_t, unsigned x, unsigned int, char *const p,\n"
      "          const volatile unsigned int flags, size_t num_headers,\n"
      "          int **grid, enum color c, long double);\n"
      "};\n");
  const auto &a = f.providers.at(0).probes.at(0).parameters;
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(names_of(a), (Strings{"path", "", "c", "", "", "buf", ""}));
  EXPECT_EQ(a[0].type, "const char *");
  EXPECT_EQ(a[0].declaration, "const char *path");
  EXPECT_EQ(a[1].type, "unsigned long long");
  EXPECT_EQ(a[2].type, "struct conn *");
  EXPECT_EQ(a[3].type, "struct conn");
  EXPECT_EQ(a[4].type, "uintptr_t");
  EXPECT_EQ(a[5].type, "char[16]"); // as gcc prints types
  EXPECT_EQ(a[5].declaration, "char buf[16]");
  EXPECT_EQ(a[6].type, "char[4]");

  const auto &b = f.providers[0].probes.at(1).parameters;
  ASSERT_EQ(b.size(), 9u);
  EXPECT_EQ(names_of(b), (Strings{"", "x", "", "p", "flags", "num_headers",
                                  "grid", "c", ""}));
  EXPECT_EQ(b[0].type, "const foo_t");
  EXPECT_EQ(b[1].type, "unsigned");
  EXPECT_EQ(b[3].type, "char *const");
  EXPECT_EQ(b[4].type, "const volatile unsigned int");
  EXPECT_EQ(b[6].type, "int **");
  EXPECT_EQ(b[7].type, "enum color");
  EXPECT_EQ(b[8].type, "long double");
}

TEST(Parser, FunctionPointerParametersKeepTheirCommas) {
  ProviderFile f = parse_ok(
      "provider sorter {\n"
      "  probe start(void (*)(int), int (*compare)(const void *, const void "
      "*), int count);\n"
      "  probe table(int (*rows)[4], void (*const cb)(void));\n"
      "};\n");
  const auto &start = f.providers.at(0).probes.at(0).parameters;
  ASSERT_EQ(start.size(), 3u);
  EXPECT_EQ(names_of(start), (Strings{"", "compare", "count"}));
  EXPECT_EQ(start[0].type, "void (*)(int)");
  EXPECT_EQ(start[1].type, "int (*)(const void *, const void *)");
  EXPECT_EQ(start[1].declaration, "int (*compare)(const void *, const void *)");
  const auto &table = f.providers[0].probes.at(1).parameters;
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(names_of(table), (Strings{"rows", "cb"}));
  EXPECT_EQ(table[0].type, "int (*)[4]");
  EXPECT_EQ(table[1].type, "void (*const)(void)");
}

TEST(Parser, ParameterNamesMayBeKeywordsOrLibcMacros) {
  ProviderFile f = parse_ok("provider depot {\n"
                            "  probe out(int class, int errno, char *string,"
                            " long new, int self)\n"
                            "};\n");
  EXPECT_EQ(names_of(f.providers.at(0).probes.at(0).parameters),
            (Strings{"class", "errno", "string", "new", "self"}));
}

TEST(Parser, TranslatedParametersAfterAColon) {
  ProviderFile f = parse_ok(
      "provider node {\n"
      "  probe http__server__request(node_dtrace_http_request_t *h,\n"
      "      node_dtrace_connection_t *c) :\n"
      "      (node_http_request_t *h, node_connection_t *c, string extra);\n"
      "  probe plain(int);\n"
      "  probe none() : ();\n"
      "};\n");
  const auto &probes = f.providers.at(0).probes;
  ASSERT_EQ(probes.size(), 3u);
  EXPECT_EQ(probes[0].parameters.size(), 2u);
  ASSERT_TRUE(probes[0].translated.has_value());
  EXPECT_EQ(probes[0].translated->size(), 3u);
  EXPECT_EQ(names_of(*probes[0].translated), (Strings{"h", "c", "extra"}));
  EXPECT_EQ((*probes[0].translated)[0].type, "node_http_request_t *");
  EXPECT_FALSE(probes[1].translated.has_value());
  ASSERT_TRUE(probes[2].translated.has_value());
  EXPECT_TRUE(probes[2].translated->empty());
}

TEST(Parser, HashLinesAnywhereAreSkipped) {
  ProviderFile f = parse_ok(
      "#pragma D option quiet\n"
      "# a shell-style comment line: provider nope { probe x(); }\n"
      "#include \"types.h\"\n"
      "#define bool char\n"
      "provider ruby {\n"
      "#if VM_COLLECT_USAGE_DETAILS\n"
      "  probe insn(const char *insns_name);\n"
      "#endif\n"
      "  #pragma D attributes Evolving/Evolving/Common provider ruby args\n"
      "  probe gc__mark__begin();\n"
      "};\n"
      "#pragma D attributes Stable/Evolving/Common provider ruby provider\n"
      "#define MULTI \\\n"
      "  provider bogus {\n");
  ASSERT_EQ(f.providers.size(), 1u);
  ASSERT_EQ(f.providers[0].probes.size(), 2u);
  EXPECT_EQ(f.providers[0].probes[0].name, "insn");
  EXPECT_EQ(f.providers[0].probes[1].name, "gc__mark__begin");
}

TEST(Parser, CommentsOfBothKinds) {
  ProviderFile f = parse_ok("/* provider fake { probe x(); } */\n"
                            "// provider fake2 {\n"
                            "provider p { // the provider\n"
                            "  /* a\n"
                            "     multi-line comment */\n"
                            "  probe a(int /* fd */ fd, // the descriptor\n"
                            "          char *p /* ) */);\n"
                            "};\n");
  ASSERT_EQ(f.providers.size(), 1u);
  ASSERT_EQ(f.providers[0].probes.size(), 1u);
  EXPECT_EQ(names_of(f.providers[0].probes[0].parameters),
            (Strings{"fd", "p"}));
  EXPECT_EQ(f.providers[0].probes[0].parameters[0].declaration, "int fd");
}

TEST(Parser, TopLevelTypeDeclarationsAreSkipped) {
  ProviderFile f = parse_ok("typedef struct {\n"
                            "\tint dummy;\n"
                            "} node_dtrace_connection_t;\n"
                            "typedef struct parcel_info {\n"
                            "  int weight;\n"
                            "  struct { int a[2]; } inner;\n"
                            "  const char *label;\n"
                            "} parcel_info_t;\n"
                            "typedef unsigned long depot_id_t;\n"
                            "typedef void (*callback_t)(int, char);\n"
                            "struct bay;\n"
                            "struct shelf { int rows; };\n"
                            "union u { int i; float f; };\n"
                            "enum color { RED = 1, GREEN = 'g' };\n"
                            ";\n"
                            "provider depot { probe in(depot_id_t id); };\n");
  ASSERT_EQ(f.providers.size(), 1u);
  EXPECT_EQ(f.providers[0].name, "depot");
  EXPECT_EQ(f.providers[0].probes.at(0).parameters.at(0).name, "id");
}

TEST(Parser, SemicolonsAreOptional) {
  ProviderFile f = parse_ok("provider a {\n"
                            "  probe one(int x)\n"
                            "  probe two()\n"
                            "  probe three(int) : (long)\n"
                            "  ;;\n"
                            "}\n"
                            "provider b { probe four() }");
  ASSERT_EQ(f.providers.size(), 2u);
  EXPECT_EQ(f.providers[0].probes.size(), 3u);
  EXPECT_EQ(f.providers[1].probes.at(0).name, "four");
}

TEST(Parser, DoubleUnderscoresStayInProbeNames) {
  ProviderFile f = parse_ok(
      "provider postgresql { probe lwlock__wait__start(int, int); "
      "probe main__after_prepare(); probe __lead(); probe trail__(); };");
  const auto &probes = f.providers.at(0).probes;
  EXPECT_EQ(probes.at(0).name, "lwlock__wait__start");
  EXPECT_EQ(probes.at(1).name, "main__after_prepare");
  EXPECT_EQ(probes.at(2).name, "__lead");
  EXPECT_EQ(probes.at(3).name, "trail__");
}

TEST(Parser, SameProviderTwiceKeepsBothBlocks) {
  ProviderFile f =
      parse_ok("provider p { probe a(); }; provider p { probe b(); };");
  ASSERT_EQ(f.providers.size(), 2u);
  EXPECT_EQ(f.providers[1].probes.at(0).name, "b");
}

TEST(Parser, EmptyFileAndEmptyProvider) {
  EXPECT_TRUE(parse_ok("").providers.empty());
  EXPECT_TRUE(parse_ok("/* nothing */\n# nothing\n").providers.empty());
  ProviderFile f = parse_ok("provider p {};");
  ASSERT_EQ(f.providers.size(), 1u);
  EXPECT_TRUE(f.providers[0].probes.empty());
}

TEST(Parser, WindowsLineEndingsAndByteOrderMark) {
  ProviderFile f = parse_ok("\xEF\xBB\xBFprovider p {\r\n"
                            "  probe a(int x);\r\n"
                            "};\r\n");
  EXPECT_EQ(f.providers.at(0).probes.at(0).parameters.at(0).name, "x");
}

// cpp's line markers: errors name the original file and line.
TEST(Parser, LineMarkersMoveLocations) {
  ProviderFile f = parse_ok("# 1 \"<built-in>\"\n"
                            "# 1 \"station.d\"\n"
                            "# 5 \"station.d\" 2\n"
                            "provider station {\n"
                            "# 1 \"inc/types.h\" 1 3 4\n"
                            "\n"
                            "  probe open(int);\n"
                            "#line 20 \"station.d\"\n"
                            "  probe close();\n"
                            "# 40\n"
                            "  probe stop();\n"
                            "};\n");
  const Provider &p = f.providers.at(0);
  EXPECT_EQ(to_string(p.loc), "station.d:5:10");
  EXPECT_EQ(to_string(p.probes.at(0).loc), "inc/types.h:2:9");
  EXPECT_EQ(to_string(p.probes.at(1).loc), "station.d:20:9");
  EXPECT_EQ(to_string(p.probes.at(2).loc), "station.d:40:9");
}

TEST(Parser, LineMarkerFileNamesAreUnescaped) {
  ProviderFile f = parse_ok("# 7 \"dir\\\\with \\\"quote\\\".d\"\n"
                            "provider p { probe a(); };\n");
  EXPECT_EQ(to_string(f.providers.at(0).loc), "dir\\with \"quote\".d:7:10");
}

// A NUL in the name (\000) is no file name: the marker is ignored, so the
// diagnostic keeps its message (found by fuzz_provider). A raw NUL there is
// an error, as in any literal.
TEST(Parser, LineMarkerWithNulInTheNameIsIgnored) {
  EXPECT_EQ(parse_error("# 7 \"a\\000b.d\"\n"
                        "provider p { probe a int); };\n"),
            "test.d:2:22: error: expected '(' after probe name 'a'");
  EXPECT_EQ(parse_error(std::string("# 7 \"a\0b.d\"\n"
                                    "provider p { probe a int); };\n",
                                    42)),
            "test.d:1:7: error: unexpected byte 0x00 in a literal");
}

// A raw NUL inside a literal is an error of its own, not a byte that
// later cuts a diagnostic quoting the literal short (found by
// fuzz_provider).
TEST(Parser, NulInALiteralIsAnError) {
  EXPECT_EQ(parse_error(std::string("\"a\0b\"\nprovider p {};\n", 21)),
            "test.d:1:3: error: unexpected byte 0x00 in a literal");
  // Escaped, the NUL is still a NUL in the literal (found by fuzz_provider:
  // the message quoted it and what() stopped there).
  EXPECT_EQ(parse_error(std::string("\"a\\\0 \"\nprovider p {};\n", 22)),
            "test.d:1:4: error: unexpected byte 0x00 in a literal");
}

TEST(Parser, ErrorAfterLineMarkerNamesTheOriginalFile) {
  EXPECT_EQ(parse_error("# 1 \"tmp.i\"\n"
                        "# 12 \"orig.d\"\n"
                        "provider p {\n"
                        "  probe a int);\n"
                        "};\n",
                        "tmp.i"),
            "orig.d:13:11: error: expected '(' after probe name 'a'");
}

// ---- Errors ------------------------------------------------------------

TEST(ParserErrors, MissingParenthesis) {
  EXPECT_EQ(parse_error("provider shop {\n"
                        "\tprobe open(int fd);\n"
                        "\tprobe close int fd);\n"
                        "};\n"),
            "test.d:3:14: error: expected '(' after probe name 'close'");
  EXPECT_EQ(parse_error("provider p { probe foo; };"),
            "test.d:1:23: error: expected '(' after probe name 'foo'");
}

TEST(ParserErrors, UnterminatedComment) {
  EXPECT_EQ(parse_error("provider shop {\n"
                        "\tprobe open(int fd);\n"
                        "/* never closed\n"
                        "\tprobe close(int fd);\n"
                        "};\n"),
            "test.d:3:1: error: unterminated comment");
  EXPECT_EQ(parse_error("provider p { probe a(int /* x); };"),
            "test.d:1:26: error: unterminated comment");
}

TEST(ParserErrors, ThirteenParameters) {
  // The error is at the 13th parameter.
  EXPECT_EQ(parse_error("provider shop {\n"
                        "\tprobe wide(int, int, int, int, int, int, int, int, "
                        "int, int, int, int, long x);\n"
                        "};\n"),
            "test.d:2:73: error: probe 'wide' has 13 parameters; at most 12");
}

TEST(ParserErrors, DuplicateProbe) {
  try {
    parse_provider_file("provider shop {\n"
                        "\tprobe open(int fd);\n"
                        "\tprobe open(long fd);\n"
                        "};\n",
                        "dup.d");
    FAIL() << "accepted";
  } catch (const SyntaxError &e) {
    EXPECT_EQ(to_string(e.location()), "dup.d:3:8");
    EXPECT_EQ(e.message(), "duplicate probe 'open' in provider 'shop'");
    EXPECT_NE(std::string(e.what()).find(
                  "\ndup.d:2:8: note: previous declaration of 'open'"),
              std::string::npos)
        << e.what();
  }
  // Also across two blocks of the same provider.
  EXPECT_EQ(parse_error("provider p { probe a(); };\n"
                        "provider p { probe a(int); };\n"),
            "test.d:2:20: error: duplicate probe 'a' in provider 'p'");
}

TEST(ParserErrors, ProbesWhoseMacrosCollide) {
  EXPECT_EQ(
      parse_error("provider p {\n probe a__b();\n probe a_b();\n};\n"),
      "test.d:3:8: error: probe 'a_b' in provider 'p' has the same macro name "
      "P_A_B as probe 'a__b' in provider 'p'");
  EXPECT_EQ(parse_error("provider p_q { probe r(); };\n"
                        "provider p { probe q_r(); };\n"),
            "test.d:2:20: error: probe 'q_r' in provider 'p' has the same "
            "macro name P_Q_R as probe 'r' in provider 'p_q'");
}

TEST(ParserErrors, UnclosedProviderAtEndOfFile) {
  // At the end of the last thing in the file, not past its newline.
  EXPECT_EQ(parse_error("provider shop {\n"
                        "\tprobe open(int fd);\n"),
            "test.d:2:21: error: unexpected end of file: provider 'shop' is "
            "not closed");
  EXPECT_EQ(parse_error("provider shop {\n  probe a(); // last\n\n"),
            "test.d:2:21: error: unexpected end of file: provider 'shop' is "
            "not closed");
}

TEST(ParserErrors, UnclosedParameterList) {
  EXPECT_EQ(parse_error("provider p {\n  probe a(int x,\n  char *y"),
            "test.d:3:10: error: unexpected end of file: parameter list of "
            "probe 'a' is not closed");
  EXPECT_EQ(parse_error("provider p {\n  probe a(int x;\n};"),
            "test.d:2:16: error: unexpected ';' in parameter list of probe "
            "'a'");
}

TEST(ParserErrors, EmptyParameters) {
  EXPECT_EQ(parse_error("provider p { probe a(int, ); };"),
            "test.d:1:27: error: expected a parameter before ')'");
  EXPECT_EQ(parse_error("provider p { probe a(, int); };"),
            "test.d:1:22: error: expected a parameter before ','");
  EXPECT_EQ(parse_error("provider p { probe a(int, void); };"),
            "test.d:1:27: error: 'void' must be the only parameter of probe "
            "'a'");
}

TEST(ParserErrors, BracketsMustMatch) {
  EXPECT_EQ(parse_error("provider p { probe a(int x]); };"),
            "test.d:1:27: error: unmatched ']'");
  EXPECT_EQ(parse_error("struct s { int a; ) ;"),
            "test.d:1:19: error: unmatched ')'");
}

TEST(ParserErrors, ProviderSyntax) {
  EXPECT_EQ(parse_error("provider { probe a(); };"),
            "test.d:1:10: error: expected provider name after 'provider', "
            "found '{'");
  EXPECT_EQ(parse_error("provider p\n  probe a();\n"),
            "test.d:2:3: error: expected '{' after provider name 'p', found "
            "'probe'");
  EXPECT_EQ(parse_error("provider p { prob a(); };"),
            "test.d:1:14: error: expected 'probe' or '}' in provider 'p', "
            "found 'prob'");
  EXPECT_EQ(parse_error("provider p { probe (int); };"),
            "test.d:1:20: error: expected probe name after 'probe', found "
            "'('");
  EXPECT_EQ(parse_error("provider p { probe a(int) : int; };"),
            "test.d:1:29: error: expected '(' after ':' in probe 'a'");
}

TEST(ParserErrors, UnknownTopLevelText) {
  EXPECT_EQ(parse_error("\nprovder p { probe a(); };\n"),
            "test.d:2:1: error: expected 'provider' or a type declaration, "
            "found 'provder'");
  EXPECT_EQ(parse_error("provider p { probe a(); };\n}\n"),
            "test.d:2:1: error: expected 'provider' or a type declaration, "
            "found '}'");
}

TEST(ParserErrors, UnterminatedDeclarations) {
  EXPECT_EQ(parse_error("typedef struct x {\n  int a;\n}"),
            "test.d:3:2: error: unexpected end of file: 'typedef' declaration "
            "is not terminated by ';'");
  // A declaration that runs into a provider would swallow it.
  EXPECT_EQ(parse_error("struct x { int a; }\nprovider p { probe a(); };\n"),
            "test.d:2:1: error: expected ';' after the 'struct' declaration");
}

TEST(ParserErrors, LexicalErrors) {
  EXPECT_EQ(parse_error("provider p {\n\tprobe a(int @x);\n};"),
            "test.d:2:14: error: unexpected character '@'");
  EXPECT_EQ(parse_error("provider p { probe a(); };\x01"),
            "test.d:1:27: error: unexpected byte 0x01");
  EXPECT_EQ(parse_error("enum e { A = \"oops };\n"),
            "test.d:1:14: error: unterminated string literal");
  EXPECT_EQ(parse_error("provider p { probe a(\"x\"); };"),
            "test.d:1:22: error: unexpected '\"x\"' in parameter list of "
            "probe 'a'");
}
