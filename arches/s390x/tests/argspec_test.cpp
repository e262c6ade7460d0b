// The s390x operand grammar, register table and portability rules, through
// the generic parser. The forms are what gcc-12 and clang-14 print for
// sys/sdt.h's "nor" and xsdt's "nr" (%r2, 5, 160(%r15), 16(%r3,%r2)) and
// what gdb 13 reads.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kS390x = *parse_arch("s390x");

TEST(S390x, Name) { EXPECT_EQ(parse_arch(arch_name(kS390x)), kS390x); }

TEST(S390x, HeaderOutputIsPortable) {
  // "nr": a general register, or a bare immediate (narrow constants come
  // sign-extended in their mode: (unsigned char)200 is -56).
  for (const char *spec :
       {"-4@%r2", "8@%r15", "-8@%r0", "1@-56", "-4@5", "-8@-123456789012"})
    EXPECT_EQ(violation(spec, kS390x), "") << spec;
  ArgLocation imm = must_parse("1@-56", kS390x);
  EXPECT_EQ(imm.kind, LocationKind::Immediate);
  EXPECT_EQ(imm.immediate, -56);
}

TEST(S390x, Registers) {
  ArgLocation r2 = must_parse("-4@%r2", kS390x);
  EXPECT_EQ(r2.kind, LocationKind::Register);
  EXPECT_EQ(r2.base->dwarf, 2);
  EXPECT_EQ(must_parse("8@%r15", kS390x).base->dwarf, 15);
  // DWARF numbers the floating-point registers out of order.
  EXPECT_EQ(must_parse("8f@%f0", kS390x).base->dwarf, 16);
  EXPECT_EQ(must_parse("8f@%f1", kS390x).base->dwarf, 20);
  EXPECT_EQ(must_parse("8f@%f2", kS390x).base->dwarf, 17);
  EXPECT_EQ(must_parse("8f@%f15", kS390x).base->dwarf, 31);
  EXPECT_TRUE(has(violation("8f@%f0", kS390x), "floating-point"));
}

TEST(S390x, Memory) {
  ArgLocation m = must_parse("-8@160(%r15)", kS390x);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base->dwarf, 15);
  EXPECT_EQ(m.displacement, 160);
  EXPECT_FALSE(m.index.has_value());
  EXPECT_EQ(violation("-8@160(%r15)", kS390x), "");
  EXPECT_EQ(violation("-4@-8(%r11)", kS390x), "");
  EXPECT_EQ(violation("-4@0(%r11)", kS390x), "");
  ArgLocation bare = must_parse("-4@(%r1)", kS390x);
  EXPECT_FALSE(bare.has_displacement);
  EXPECT_TRUE(has(violation("-4@(%r1)", kS390x), "without a displacement"));
  EXPECT_TRUE(has(violation("-4@8(%r0)", kS390x), "stands for 0"));
}

TEST(S390x, IndexFormsAreNotPortable) {
  // gcc -O2 with sys/sdt.h's "nor": D(X,B), the index first.
  ArgLocation x = must_parse("-2@16(%r3,%r2)", kS390x);
  EXPECT_EQ(x.kind, LocationKind::Memory);
  EXPECT_EQ(x.base->dwarf, 2);
  ASSERT_TRUE(x.index.has_value());
  EXPECT_EQ(x.index->dwarf, 3);
  EXPECT_EQ(x.displacement, 16);
  EXPECT_TRUE(has(violation("-2@16(%r3,%r2)", kS390x), "index register"));
  EXPECT_TRUE(has(violation("-4@0(%r1,%r10)", kS390x), "index register"));
}

TEST(S390x, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c :
       {Case{"8@%r16", "%r16"}, Case{"8@%x2", "%x2"}, Case{"8@0(%f1)", "f1"},
        Case{"8@0(%r9", ""}, Case{"8@0(%r1,)", ")"}, Case{"8@$5", "$5"},
        Case{"8@[%r3]", "["}, Case{"8@%", ""}}) {
    ParseError e = must_fail(c.spec, kS390x);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

// gdb's expressions over s390x operands (stap-probe.c with
// s390-linux-tdep.c: bare integers, registers after '%', indirection in
// parentheses): classified Symbolic.
TEST(S390x, GdbExpressions) {
  for (const char *spec :
       {"8@%r2+8", "8@160(%r15)*2", "-4@-(%r3)", "8@%r2%%r3", "8@(%r2)&255"}) {
    ArgLocation e = must_parse(spec, kS390x);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  ParseError e = must_fail("8@%r2+%r16", kS390x);
  EXPECT_EQ(e.token, "%r16");
}

// perf's s390 SDT operands (tools/perf/arch/s390/util/perf_regs.c: %rN and
// [+-]NUM(%rN)): all read by the grammar itself.
TEST(S390x, PerfForms) {
  EXPECT_EQ(must_parse("8@%r2", kS390x).kind, LocationKind::Register);
  EXPECT_EQ(must_parse("-8@+160(%r15)", kS390x).displacement, 160);
  EXPECT_EQ(must_parse("-8@-8(%r11)", kS390x).displacement, -8);
}

} // namespace
} // namespace xsdt
