// The riscv64 operand grammar, register table and portability rules,
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

const Arch kRv = *parse_arch("riscv64");

TEST(RiscV64, Name) {
  EXPECT_EQ(parse_arch("riscv64"), kRv);
  EXPECT_EQ(parse_arch(arch_name(kRv)), kRv);
}

TEST(RiscV64, Lookup) {
  EXPECT_EQ(lookup_register(kRv, "zero")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kRv, "fs11")->dwarf, 32 + 27);
  EXPECT_FALSE(lookup_register(kRv, "s12"));
}

TEST(RiscV64, HeaderOutputIsPortable) {
  for (const char *spec : {"-4@a0", "4f@t4", "-2@-3", "-8@a1", "8f@t1", "-4@t0",
                           "1@-1", "-8@20015998343868", "8@a7", "-4@s11",
                           "8@ra", "8@gp", "8@tp", "8@sp", "-4@t6"})
    EXPECT_EQ(violation(spec, kRv), "") << spec;
  EXPECT_EQ(must_parse("-2@-3", kRv).immediate, -3);
  EXPECT_EQ(must_parse("8@0x10", kRv).immediate, 16);
}

TEST(RiscV64, Registers) {
  ArgLocation a0 = must_parse("-4@a0", kRv);
  EXPECT_EQ(a0.kind, LocationKind::Register);
  EXPECT_EQ(a0.base->dwarf, 10);
  EXPECT_EQ(must_parse("8@s0", kRv).base->dwarf, 8);
  EXPECT_EQ(must_parse("8@t6", kRv).base->dwarf, 31);
  ArgLocation x10 = must_parse("8@x10", kRv);
  EXPECT_EQ(x10.base->full_name, "a0");
  EXPECT_TRUE(has(violation("8@x10", kRv), "ABI name a0"));
  EXPECT_TRUE(has(violation("8@zero", kRv), "zero register"));
  EXPECT_TRUE(has(violation("8@x0", kRv), "zero register"));
  EXPECT_TRUE(has(violation("8@fp", kRv), "s0"));
  EXPECT_TRUE(has(violation("8f@fa0", kRv), "floating-point"));
  EXPECT_TRUE(has(violation("8f@f10", kRv), "floating-point"));
}

TEST(RiscV64, Memory) {
  ArgLocation m = must_parse("-8@-24(s0)", kRv);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base_reg, "s0");
  EXPECT_EQ(m.displacement, -24);
  EXPECT_EQ(violation("-8@-24(s0)", kRv), "");
  EXPECT_EQ(violation("8@0(sp)", kRv), "");
  EXPECT_EQ(violation("-4@-88(s0)", kRv), "");
  ArgLocation z = must_parse("-4@(a0)", kRv);
  EXPECT_EQ(z.kind, LocationKind::Memory);
  EXPECT_FALSE(z.has_displacement);
  EXPECT_TRUE(has(violation("-4@(a0)", kRv), "without an offset"));
  EXPECT_TRUE(has(violation("8@16(fp)", kRv), "base"));
  EXPECT_TRUE(has(violation("8@16(x8)", kRv), "s0"));
  EXPECT_TRUE(has(violation("8@4+4(a0)", kRv), "expression"));
}

TEST(RiscV64, Symbolic) {
  ArgLocation lo = must_parse("8@%lo(g)(a5)", kRv);
  EXPECT_EQ(lo.kind, LocationKind::Symbolic);
  EXPECT_EQ(lo.base_reg, "a5");
  EXPECT_EQ(violation("8@%lo(g)(a5)", kRv),
            "needs symbol resolution: %lo(g)(a5)");
  EXPECT_EQ(must_parse("8@%pcrel_lo(.L3)(a0)", kRv).kind,
            LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@g", kRv).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@g+4", kRv).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@g+4(a0)", kRv).kind, LocationKind::Symbolic);
}

TEST(RiscV64, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c :
       {Case{"8@a8", "a8"}, Case{"8@x32", "x32"}, Case{"8@t7", "t7"},
        Case{"8@(a8)", "a8"}, Case{"8@16(fa0)", "fa0"}, Case{"8@16(a0", ""},
        Case{"8@(", ""}, Case{"8@-", ""}, Case{"8@16(a0)x", "x"},
        Case{"8@a0(a1)", "(a1)"}, Case{"8@%lo(g", ""}, Case{"8@[a0]", "["},
        Case{"8@$1", "$1"}}) {
    ParseError e = must_fail(c.spec, kRv);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

// gdb's expression syntax (stap-probe.c) over RISC-V operands: classified
// Symbolic. gdb 13 reads no riscv64 argument; the syntax is the generic one.
TEST(Riscv64, GdbExpressions) {
  for (const char *spec : {"8@a0+a1", "8@-88(s0)|1", "8@-(a0)", "8@a0%a1"}) {
    ArgLocation e = must_parse(spec, kRv);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  // %lo(sym)(a5) is the grammar's own relocation form, as before.
  EXPECT_EQ(must_parse("8@%lo(g)(a5)", kRv).symbolic_reason,
            "needs symbol resolution: %lo(g)(a5)");
  ParseError e = must_fail("8@a0+a8", kRv);
  EXPECT_EQ(e.token, "a8");
  EXPECT_EQ(e.position, 5u);
}

// DWARF numbers of the floating-point registers, from the ABI (RISC-V
// ELF psABI, "DWARF Register Numbers"): f0..f31 are 32..63, by number or
// by ABI name.
TEST(RiscV64, FloatRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kRv, {{"8f@f0", 32},
                                    {"8f@ft0", 32},
                                    {"8f@fa0", 42},
                                    {"8f@fs11", 59},
                                    {"8f@f31", 63}});
}

} // namespace
} // namespace xsdt
