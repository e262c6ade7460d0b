// The MIPS operand grammar (arches/mips) and mips64el's register table,
// on the forms Debian 12's compilers give: sys/sdt.h's "nor" with
// mips64el-linux-gnuabi64-gcc-12 and clang-14 (measured 2026-12-02: -4@$4,
// -8@0($3), 8f@48($sp), -4@0($fp)) and xsdt's "nr" ($N or a number).
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kMips = *parse_arch("mips64el");

TEST(Mips64el, Name) { EXPECT_EQ(parse_arch(arch_name(kMips)), kMips); }

// DWARF: $0..$31 are 0..31 under their numbers and their n64 names, the
// floating-point registers 32..63.
TEST(Mips64el, RegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kMips, {{"-8@$4", 4},
                                      {"-8@$a0", 4},
                                      {"-8@$a4", 8},
                                      {"-8@$a7", 11},
                                      {"-8@$t0", 12},
                                      {"-8@$t3", 15},
                                      {"-8@$s0", 16},
                                      {"-8@$t9", 25},
                                      {"-8@$gp", 28},
                                      {"-8@$sp", 29},
                                      {"-8@$fp", 30},
                                      {"-8@$s8", 30},
                                      {"-8@$ra", 31},
                                      {"8f@$f0", 32},
                                      {"8f@$f31", 63}});
}

TEST(Mips64el, Registers) {
  ArgLocation r = must_parse("-4@$4", kMips);
  EXPECT_EQ(r.kind, LocationKind::Register);
  EXPECT_EQ(violation("-4@$4", kMips), "");
  EXPECT_EQ(violation("-8@$sp", kMips), "");
  // $0 is hard-wired zero, $f registers hold no integer a tracer reads.
  EXPECT_EQ(must_parse("-4@$zero", kMips).base->cls, RegisterClass::Zero);
  EXPECT_NE(violation("8f@$f12", kMips), "");
}

TEST(Mips64el, Memory) {
  ArgLocation m = must_parse("8f@48($sp)", kMips);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base->dwarf, 29);
  EXPECT_EQ(m.displacement, 48);
  EXPECT_EQ(must_parse("-4@-24($fp)", kMips).displacement, -24);
  ArgLocation bare = must_parse("-8@($3)", kMips);
  EXPECT_FALSE(bare.has_displacement);
  EXPECT_EQ(violation("-8@0($3)", kMips), "");
}

TEST(Mips64el, Immediates) {
  EXPECT_EQ(must_parse("-4@5", kMips).immediate, 5);
  EXPECT_EQ(must_parse("-4@-7", kMips).immediate, -7);
  EXPECT_EQ(violation("-8@-7", kMips), "");
}

// gcc's relocation operators and bare symbols need the symbol table.
TEST(Mips64el, Symbolic) {
  for (const char *spec :
       {"-4@%lo(counter)($2)", "8@%got_disp(x)($28)", "-4@%gp_rel(g)($28)",
        "4@counter", "-4@%got_ofst(static_int)($3)", "8f@%lo($LC15)($2)"})
    EXPECT_EQ(must_parse(spec, kMips).kind, LocationKind::Symbolic) << spec;
}

TEST(Mips64el, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c : {Case{"4@$32", "$32"}, Case{"4@$x9", "$x9"},
                 Case{"4@8($f2)", "f2"}, Case{"4@8($4", ""}}) {
    ParseError e = must_fail(c.spec, kMips);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

} // namespace
} // namespace xsdt
