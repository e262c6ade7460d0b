// The ppc64el operand grammar, register table and portability rules,
// through the generic parser. The forms are those sys/sdt.h's %I[x]%[x]
// gives with gcc-12 and clang-14 (3, i5, 0(9), 3,4) and what gdb 13 reads.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <string>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kPpc = *parse_arch("ppc64el");

TEST(Ppc64el, Names) {
  EXPECT_EQ(parse_arch("ppc64le"), kPpc);
  EXPECT_EQ(parse_arch("powerpc64le"), kPpc);
  EXPECT_EQ(parse_arch(arch_name(kPpc)), kPpc);
}

TEST(Ppc64el, HeaderOutputIsPortable) {
  // "nr" with %I[x]%[x]: a register's number, or i and an immediate.
  for (const char *spec :
       {"-4@3", "8@31", "1@0", "-2@i-3", "-8@i20015998343", "4@i0", "8@1"})
    EXPECT_EQ(violation(spec, kPpc), "") << spec;
  EXPECT_EQ(must_parse("-2@i-3", kPpc).immediate, -3);
  EXPECT_EQ(must_parse("-2@i-3", kPpc).kind, LocationKind::Immediate);
}

TEST(Ppc64el, RegistersAreNumbers) {
  ArgLocation r3 = must_parse("-4@3", kPpc);
  EXPECT_EQ(r3.kind, LocationKind::Register);
  EXPECT_EQ(r3.base->dwarf, 3);
  EXPECT_EQ(must_parse("8@31", kPpc).base->dwarf, 31);
  // With -mregnames gcc writes %r3: the same register, which gdb rejects.
  EXPECT_EQ(must_parse("8@%r3", kPpc).base->dwarf, 3);
  EXPECT_EQ(must_parse("8@r3", kPpc).base->dwarf, 3);
  EXPECT_TRUE(has(violation("8@%r3", kPpc), "only its number, 3"));
  EXPECT_TRUE(has(violation("8@r3", kPpc), "only its number, 3"));
  EXPECT_EQ(must_parse("8f@f1", kPpc).base->dwarf, 33);
  EXPECT_TRUE(has(violation("8f@f1", kPpc), "floating-point"));
}

TEST(Ppc64el, Memory) {
  ArgLocation m = must_parse("-8@-16(1)", kPpc);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base->dwarf, 1);
  EXPECT_EQ(m.displacement, -16);
  EXPECT_EQ(violation("-8@-16(1)", kPpc), "");
  EXPECT_EQ(violation("-4@0(9)", kPpc), "");
  EXPECT_TRUE(has(violation("-4@0(%r9)", kPpc), "only its number, 9"));
  ArgLocation bare = must_parse("-4@(9)", kPpc);
  EXPECT_EQ(bare.kind, LocationKind::Memory);
  EXPECT_FALSE(bare.has_displacement);
  EXPECT_TRUE(has(violation("-4@(9)", kPpc), "without a displacement"));
}

TEST(Ppc64el, IndexedFormsAreNotPortable) {
  // gcc -O2 with sys/sdt.h's "nZr": an array element at a variable index.
  ArgLocation x = must_parse("-2@3,4", kPpc);
  EXPECT_EQ(x.kind, LocationKind::Memory);
  EXPECT_EQ(x.base->dwarf, 3);
  ASSERT_TRUE(x.index.has_value());
  EXPECT_EQ(x.index->dwarf, 4);
  EXPECT_TRUE(has(violation("-2@3,4", kPpc), "indexed operand"));
  EXPECT_TRUE(has(violation("-2@10,9", kPpc), "indexed operand"));
}

TEST(Ppc64el, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c : {Case{"8@32", "32"}, Case{"8@%r32", "r32"}, Case{"8@-5", ""},
                 Case{"8@0(32)", "32"}, Case{"8@0(f1)", "f1"},
                 Case{"8@0(9", ""}, Case{"8@3,", ""}, Case{"8@i", ""},
                 Case{"8@$5", "$5"}, Case{"8@[3]", "["}}) {
    ParseError e = must_fail(c.spec, kPpc);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

// gdb's expressions over POWER operands (stap-probe.c with ppc-linux-tdep.c:
// integers after 'i', registers by number, indirection in parentheses):
// classified Symbolic. A bare number is a register, as gdb reads it.
TEST(Ppc64el, GdbExpressions) {
  for (const char *spec :
       {"8@3+i8", "8@8(31)*i2", "-8@-(3)", "8@%r3^%r4", "8@(9)+(i1)"}) {
    ArgLocation e = must_parse(spec, kPpc);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  EXPECT_EQ(must_parse("8@3+i8", kPpc).base_reg, "3");
  ParseError e = must_fail("8@3+99", kPpc);
  EXPECT_EQ(e.token, "99");
  EXPECT_EQ(e.position, 4u);
}

// perf's powerpc SDT operands (tools/perf/arch/powerpc/util/perf_regs.c:
// REG or %rREG, NUM(REG) or NUM(%rREG) with an optional '-'; 'i'
// constants skipped): all read by the grammar itself.
TEST(Ppc64el, PerfForms) {
  EXPECT_EQ(must_parse("8@3", kPpc).kind, LocationKind::Register);
  EXPECT_EQ(must_parse("8@%r31", kPpc).kind, LocationKind::Register);
  EXPECT_EQ(must_parse("-8@-8(3)", kPpc).displacement, -8);
  EXPECT_EQ(must_parse("8@8(%r31)", kPpc).displacement, 8);
  EXPECT_EQ(must_parse("-4@i-7", kPpc).immediate, -7);
}

// DWARF numbers of the floating-point registers, from the ABI (64-bit
// ELF V2 ABI, "DWARF Register Number Mapping"): f0..f31 are 32..63.
TEST(Ppc64el, FloatRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kPpc, {{"8f@f0", 32}, {"8f@f31", 63}});
}

} // namespace
} // namespace xsdt
