// The aarch64 operand grammar, register table and portability rules,
// through the generic parser.
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

const Arch kA64 = *parse_arch("aarch64");

TEST(AArch64, Name) {
  EXPECT_EQ(parse_arch("aarch64"), kA64);
  EXPECT_EQ(parse_arch(arch_name(kA64)), kA64);
}

TEST(AArch64, Lookup) {
  EXPECT_EQ(lookup_register(kA64, "xzr")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kA64, "d3")->full_name, "v3");
}

TEST(AArch64, HeaderOutputIsPortable) {
  for (const char *spec :
       {"-4@x0", "-8@x1", "-2@x2", "1@x3", "8f@x11", "4f@x12", "8@x4",
        "-8@20015998343868", "2@-1", "1@-1", "-4@42", "-4@-7", "8@x30"})
    EXPECT_EQ(violation(spec, kA64), "") << spec;
  ArgLocation i = must_parse("-8@20015998343868", kA64);
  EXPECT_EQ(i.kind, LocationKind::Immediate);
  EXPECT_EQ(i.immediate, 20015998343868);
  EXPECT_EQ(must_parse("2@-1", kA64).immediate, -1);
}

TEST(AArch64, Registers) {
  ArgLocation x = must_parse("8@x29", kA64);
  EXPECT_EQ(x.kind, LocationKind::Register);
  EXPECT_EQ(x.base->dwarf, 29);
  ArgLocation sp = must_parse("8@sp", kA64);
  EXPECT_EQ(sp.base->dwarf, 31);
  EXPECT_EQ(violation("8@sp", kA64), "");
  ArgLocation w = must_parse("-4@w7", kA64);
  EXPECT_EQ(w.base->full_name, "x7");
  EXPECT_EQ(w.base->bit_width, 32);
  EXPECT_TRUE(has(violation("-4@w7", kA64), "32-bit register name w7"));
  EXPECT_TRUE(has(violation("8@xzr", kA64), "zero register"));
  EXPECT_TRUE(has(violation("8@fp", kA64), "alias fp"));
  EXPECT_TRUE(has(violation("8@lr", kA64), "x30"));
  EXPECT_TRUE(has(violation("8f@d0", kA64), "vector"));
  EXPECT_TRUE(has(violation("4f@s1", kA64), "vector"));
}

TEST(AArch64, Memory) {
  ArgLocation m = must_parse("8@[sp, 16]", kA64);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base_reg, "sp");
  EXPECT_EQ(m.displacement, 16);
  EXPECT_EQ(violation("8@[sp, 16]", kA64), "");
  EXPECT_EQ(violation("8@[sp, 96]", kA64), "");
  EXPECT_EQ(must_parse("-8@[x29, -8]", kA64).displacement, -8);
  EXPECT_EQ(violation("-8@[x29, -8]", kA64), "");
  EXPECT_EQ(violation("-4@[x13]", kA64), "");
  EXPECT_FALSE(must_parse("-4@[x13]", kA64).has_displacement);
  EXPECT_EQ(must_parse("8@[sp,96]", kA64).displacement, 96);
  ArgLocation h = must_parse("8@[x0, #8]", kA64);
  EXPECT_EQ(h.displacement, 8);
  EXPECT_TRUE(h.hash_immediate);
  EXPECT_TRUE(has(violation("8@[x0, #8]", kA64), "'#'"));
  EXPECT_EQ(must_parse("8@[x0, #-8]", kA64).displacement, -8);
}

TEST(AArch64, IndexForms) {
  ArgLocation r = must_parse("8@[x1, x2]", kA64);
  EXPECT_EQ(r.kind, LocationKind::Memory);
  EXPECT_EQ(r.index_reg, "x2");
  EXPECT_EQ(r.scale, 1);
  EXPECT_TRUE(has(violation("8@[x1, x2]", kA64), "register offset"));
  EXPECT_EQ(must_parse("8@[x1, x2, lsl #3]", kA64).scale, 8);
  EXPECT_EQ(must_parse("4@[x1, w2, sxtw #2]", kA64).scale, 4);
  EXPECT_EQ(must_parse("4@[x1, w2, uxtw]", kA64).scale, 1);
}

TEST(AArch64, Immediates) {
  ArgLocation h = must_parse("-4@#42", kA64);
  EXPECT_EQ(h.kind, LocationKind::Immediate);
  EXPECT_EQ(h.immediate, 42);
  EXPECT_TRUE(has(violation("-4@#42", kA64), "'#' immediate"));
  EXPECT_EQ(must_parse("-4@#-7", kA64).immediate, -7);
  EXPECT_EQ(must_parse("8@0x10", kA64).immediate, 16);
  EXPECT_EQ(violation("4@0", kA64), "");
}

TEST(AArch64, Symbolic) {
  ArgLocation s = must_parse("-4@[x0, #:lo12:.LANCHOR0]", kA64);
  EXPECT_EQ(s.kind, LocationKind::Symbolic);
  EXPECT_EQ(s.base_reg, "x0");
  EXPECT_EQ(violation("-4@[x0, #:lo12:.LANCHOR0]", kA64),
            "needs symbol resolution: [x0, #:lo12:.LANCHOR0]");
  EXPECT_EQ(must_parse("8@[x1, #:got_lo12:sym]", kA64).kind,
            LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@[x1, :lo12:sym+8]", kA64).kind,
            LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@:lo12:sym", kA64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@#:abs_g0:sym", kA64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@.LC0", kA64).symbolic_reason,
            "needs symbol resolution: .LC0");
  EXPECT_EQ(must_parse("8@counter", kA64).kind, LocationKind::Symbolic);
}

TEST(AArch64, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c :
       {Case{"8@x31", "x31"}, Case{"8@w31", "w31"}, Case{"8@v32", "v32"},
        Case{"8@[w0]", "w0"}, Case{"8@[x0, 8]!", "!"}, Case{"8@[x0", ""},
        Case{"8@[sp, 16", ""}, Case{"8@[x0, x1, ror #2]", "ror"},
        Case{"8@[x0, x1, lsl #5]", "5"}, Case{"8@[foo]", "foo"},
        Case{"8@#", ""}, Case{"8@x0 ", " "}, Case{"8@[x0, sp]", "sp"},
        Case{"8@[xzr]", "xzr"}, Case{"8@[x0, x32]", "x32"}, Case{"8@%x0", "%"},
        Case{"8@[x0, #x1]", "x1"}}) {
    ParseError e = must_fail(c.spec, kA64);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

// ---- Argument lists -------------------------------------------------------

TEST(Args, AArch64BracketsKeepTheirSpace) {
  auto r = parse_arg_specs("-4@[x0, #:lo12:.LANCHOR0] 8@[sp, 16] -4@x1", kA64);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind, LocationKind::Symbolic);
  EXPECT_EQ((*r)[1].displacement, 16);
  EXPECT_EQ((*r)[2].base_reg, "x1");
}

TEST(Args, ErrorPositionsAreInTheWholeString) {
  auto a = parse_arg_specs("8@[sp, 16] 8@[x0, 8]!", kA64);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().token, "!");
  EXPECT_EQ(a.error().position, 20u);
}

// gdb's expressions over AArch64 operands (stap-probe.c with
// aarch64-linux-tdep.c: integers bare or after '#', registers without a
// prefix, indirection in brackets): classified Symbolic.
TEST(AArch64, GdbExpressions) {
  for (const char *spec : {"8@x0+x1", "-8@[sp, 16]+#8", "8@-(x3)", "8@(x1+8)*2",
                           "8@[x29, -8]<<2", "8@!x2"}) {
    ArgLocation e = must_parse(spec, kA64);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  EXPECT_EQ(must_parse("-8@[sp, 16]+#8", kA64).base_reg, "sp");
  ParseError e = must_fail("8@x0+x31", kA64);
  EXPECT_EQ(e.token, "x31");
  EXPECT_EQ(e.position, 5u);
  EXPECT_TRUE(has(must_fail("8@(x0+1", kA64).message, "unbalanced '('"));
}

// perf's arm64 SDT operands (tools/perf/arch/arm64/util/perf_regs.c:
// SDT_OP_REGEX1 x registers, SDT_OP_REGEX2 [sp], [sp, NUM], [sp,NUM];
// constants skipped): all read by the grammar itself.
TEST(AArch64, PerfForms) {
  EXPECT_EQ(must_parse("8@x29", kA64).kind, LocationKind::Register);
  EXPECT_EQ(must_parse("8@[sp]", kA64).kind, LocationKind::Memory);
  EXPECT_EQ(must_parse("8@[sp, 16]", kA64).displacement, 16);
  EXPECT_EQ(must_parse("8@[sp,16]", kA64).displacement, 16);
  EXPECT_EQ(must_parse("-4@42", kA64).kind, LocationKind::Immediate);
}

// DWARF numbers of the SIMD and FP registers, from the ABI ("DWARF for
// the Arm 64-bit Architecture"): v0..v31 are 64..95, whatever the view
// (q, d, s, h, b name parts of the same register).
TEST(AArch64, VectorRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(
      kA64, {{"8f@v0", 64}, {"8f@d8", 72}, {"4f@s31", 95}, {"8f@q17", 81}});
}

} // namespace
} // namespace xsdt
