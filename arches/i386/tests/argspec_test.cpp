// The i386 operand grammar (AT&T, arches/x86), register table and
// portability rules, through the generic parser.
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

const Arch kI386 = *parse_arch("i386");

TEST(I386, Name) {
  EXPECT_EQ(parse_arch("i386"), kI386);
  EXPECT_EQ(parse_arch(arch_name(kI386)), kI386);
}

TEST(I386, Lookup) {
  EXPECT_FALSE(lookup_register(kI386, "r8b"));
  EXPECT_EQ(lookup_register(kI386, "eip")->cls, RegisterClass::ProgramCounter);
}

TEST(I386, HeaderOutputIsPortable) {
  for (const char *spec : {"-4@0(%edx)", "-8@64(%edx)", "8f@32(%esi)",
                           "4f@40(%esi)", "1@24(%edx)", "-4@88(%esi)"})
    EXPECT_EQ(violation(spec, kI386), "") << spec;
  ArgLocation m = must_parse("-8@64(%edx)", kI386);
  EXPECT_EQ(m.base->full_name, "edx");
  EXPECT_EQ(m.base->dwarf, 2);
  EXPECT_EQ(m.displacement, 64);
}

TEST(I386, Registers) {
  for (const char *name : {"eax", "ax",  "al",  "ah",  "ebx", "ecx", "edx",
                           "esi", "edi", "ebp", "esp", "si",  "di",  "bp",
                           "sp",  "bl",  "cl",  "dl",  "bh",  "ch",  "dh"})
    EXPECT_EQ(must_parse(std::string("1@%") + name, kI386).kind,
              LocationKind::Register)
        << name;
  EXPECT_EQ(must_parse("4@%esp", kI386).base->dwarf, 4);
  EXPECT_EQ(must_parse("4@%ecx", kI386).base->dwarf, 1);
  EXPECT_EQ(must_parse("2@%si", kI386).base->full_name, "esi");
  EXPECT_EQ(must_parse("1@%ch", kI386).base->bit_offset, 8);
  EXPECT_EQ(violation("-4@%eax", kI386), "");
  EXPECT_EQ(violation("2@%ax", kI386), "");
  EXPECT_TRUE(has(violation("1@%bh", kI386), "high-byte"));
  for (const char *reg :
       {"%rax", "%r8", "%r8d", "%sil", "%dil", "%xmm8", "%rip"}) {
    ParseError e = must_fail(std::string("4@") + reg, kI386);
    EXPECT_EQ(e.token, reg);
    EXPECT_TRUE(has(e.message, "unknown i386 register")) << e.message;
  }
}

TEST(I386, NonPortable) {
  ArgLocation g = must_parse("-4@g@GOTOFF(%ecx)", kI386);
  EXPECT_EQ(g.kind, LocationKind::Symbolic);
  EXPECT_EQ(g.base_reg, "ecx");
  EXPECT_EQ(violation("-4@g@GOTOFF(%ecx)", kI386),
            "needs symbol resolution: g@GOTOFF(%ecx)");
  EXPECT_TRUE(has(violation("-8@$4886718345", kI386), "8-byte immediate"));
  EXPECT_EQ(violation("-4@$5", kI386), "");
  // (x86_64 takes -8@$5: X86_64.EightByteImmediate.)
  EXPECT_TRUE(has(violation("-8@%eax", kI386), "register pair"));
  EXPECT_TRUE(has(violation("-2@16(%edi,%esi,2)", kI386), "SIB"));
  EXPECT_TRUE(has(violation("8@%xmm0", kI386), "vector"));
}

TEST(I386, Errors) {
  EXPECT_EQ(must_fail("4@8(%eip)", kI386).token, "%eip");
  EXPECT_EQ(must_fail("4@(%ax)", kI386).token, "%ax");
  EXPECT_EQ(must_fail("4@(%ebx,%esp,2)", kI386).token, "%esp");
}

// gdb's expressions (stap-probe.c with i386-tdep.c's prefixes: '$', '%',
// parentheses) over i386's operands: classified Symbolic.
TEST(I386, GdbExpressions) {
  for (const char *spec : {"4@%eax+$1", "-4@-4(%ebp)*$2", "-4@-($4)",
                           "4@(%esp)&$255", "4@!%ecx"}) {
    ArgLocation e = must_parse(spec, kI386);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  // gdb.arch/i386-stap-eval-lang-ada.S's spec stays plain memory.
  EXPECT_EQ(must_parse("-4@-4(%ebp)", kI386).kind, LocationKind::Memory);
  ParseError e = must_fail("4@%eax+%rax", kI386);
  EXPECT_EQ(e.token, "%rax");
  EXPECT_EQ(e.position, 7u);
}

// DWARF numbers of the vector registers, from the ABI (System V i386
// psABI, "DWARF Register Number Mapping"): xmm0..xmm7 are 21..28.
TEST(I386, VectorRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kI386, {{"8f@%xmm0", 21}, {"8f@%xmm7", 28}});
}

} // namespace
} // namespace xsdt
