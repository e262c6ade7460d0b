// The armhf operand grammar, register table and portability rules,
// through the generic parser. The forms are what sys/sdt.h's "g" gives
// with gcc-12 and clang-14 (r0, ip, #5, [sp, #8], [r0, r1, lsl #1]), what
// xsdt's argument area gives ([r3, #8]) and what gdb 13 and libbpf read.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kArm = *parse_arch("armhf");

TEST(Armhf, Name) { EXPECT_EQ(parse_arch(arch_name(kArm)), kArm); }

TEST(Armhf, ArgumentAreaIsPortable) {
  for (const char *spec : {"-4@[r3, #0]", "8@[r0, #8]", "-8@[r10, #88]",
                           "1@[ip, #16]", "-2@[sp, #24]", "4@[lr, #40]"})
    EXPECT_EQ(violation(spec, kArm), "") << spec;
  ArgLocation m = must_parse("-8@[fp, #88]", kArm);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base->dwarf, 11);
  EXPECT_EQ(m.displacement, 88);
}

// r11 has no name both read: gdb reads fp as its frame base $fp (measured
// by lit-tests/consumers: [fp, #0] read 0), libbpf has no r11. The backend
// keeps the slot base in a low register (Thumb) or copies it into ip (ARM
// state).
TEST(Armhf, FpBaseIsNotPortable) {
  EXPECT_TRUE(has(violation("-8@[fp, #88]", kArm), "frame base"));
  EXPECT_TRUE(has(violation("4@[r11, #8]", kArm), "libbpf reads only"));
}

TEST(Armhf, BareRegisters) {
  EXPECT_EQ(must_parse("-4@r0", kArm).base->dwarf, 0);
  EXPECT_EQ(must_parse("-4@ip", kArm).base->dwarf, 12);
  EXPECT_EQ(must_parse("-4@r12", kArm).base->dwarf, 12);
  EXPECT_EQ(must_parse("-4@lr", kArm).base->dwarf, 14);
  EXPECT_EQ(violation("-4@r10", kArm), "");
  // gdb: "Operator `i' not recognized"; libbpf: "unrecognized register".
  EXPECT_TRUE(has(violation("-2@ip", kArm), "bare register ip"));
  EXPECT_TRUE(has(violation("-4@r12", kArm), "bare register r12"));
  EXPECT_TRUE(has(violation("-4@fp", kArm), "bare register fp"));
  // A 64-bit value in a register is one half of a pair.
  EXPECT_TRUE(has(violation("-8@r4", kArm), "register pair"));
}

// DWARF numbers of the VFP registers, from the ABI ("DWARF for the Arm
// Architecture", register names table): d0..d31 are 256..287 and s0..s31
// the older 64..95. Tools read a register by this number (xsdt-inspect's
// JSON, a DWARF consumer), so a table one off names another register.
TEST(Armhf, VfpRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kArm, {{"8f@d0", 256},
                                     {"8f@d8", 264},
                                     {"8f@d31", 287},
                                     {"4f@s0", 64},
                                     {"4f@s31", 95}});
}

TEST(Armhf, Memory) {
  ArgLocation bare = must_parse("-4@[r1]", kArm);
  EXPECT_FALSE(bare.has_displacement);
  EXPECT_EQ(violation("-4@[r1]", kArm), "");
  EXPECT_EQ(must_parse("-4@[r7, #-4]", kArm).displacement, -4);
  // libbpf needs the '#'; r11 is fp to it.
  EXPECT_TRUE(has(violation("4@[sp, 8]", kArm), "without '#'"));
  EXPECT_TRUE(has(violation("4@[r11, #8]", kArm), "libbpf reads only"));
}

TEST(Armhf, IndexFormsAreNotPortable) {
  // gcc -O2 with sys/sdt.h's "g": an array element at a variable index.
  ArgLocation x = must_parse("-2@[r0, r1, lsl #1]", kArm);
  EXPECT_EQ(x.kind, LocationKind::Memory);
  EXPECT_EQ(x.base->dwarf, 0);
  ASSERT_TRUE(x.index.has_value());
  EXPECT_EQ(x.index->dwarf, 1);
  EXPECT_EQ(x.scale, 2);
  EXPECT_TRUE(has(violation("-2@[r0, r1, lsl #1]", kArm), "index register"));
  EXPECT_TRUE(has(violation("-8@[r3, r0]", kArm), "index register"));
}

TEST(Armhf, Immediates) {
  EXPECT_EQ(must_parse("-4@#5", kArm).immediate, 5);
  EXPECT_EQ(must_parse("-4@#-5", kArm).immediate, -5);
  EXPECT_EQ(violation("-4@#-5", kArm), "");
  // gdb truncates a 64-bit immediate to 32 bits, libbpf saturates it.
  EXPECT_TRUE(has(violation("-8@#4886718345", kArm), "8-byte immediate"));
  EXPECT_TRUE(has(violation("-4@5", kArm), "without '#'"));
}

TEST(Armhf, Errors) {
  struct Case {
    const char *spec;
    const char *token;
  };
  for (Case c : {Case{"4@[r16]", "r16"}, Case{"4@[s0, #4]", "s0"},
                 Case{"4@[r0, r1, lsr #1]", "lsr"}, Case{"4@[r0, #4", ""},
                 Case{"4@[r0, r1, lsl #5]", "5"}}) {
    ParseError e = must_fail(c.spec, kArm);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
  }
}

// gdb's expressions over 32-bit ARM operands (stap-probe.c with
// arm-linux-tdep.c: integers bare or after '#' or '$', registers rN,
// indirection in brackets): classified Symbolic.
TEST(Armhf, GdbExpressions) {
  for (const char *spec :
       {"4@r0+#4", "4@[sp, #8]-r1", "-4@-(r3)", "4@(r1|r2)", "4@$3*r4"}) {
    ArgLocation e = must_parse(spec, kArm);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression")) << spec;
  }
  EXPECT_EQ(must_parse("4@[sp, #8]-r1", kArm).base_reg, "sp");
  ParseError e = must_fail("4@r0+", kArm);
  EXPECT_EQ(e.position, 5u);
  EXPECT_TRUE(has(e.message, "expected an operand after '+'"));
  // An unknown name is a symbol in this grammar, and no expression names
  // one: the grammar's error stands.
  e = must_fail("4@r0+r99", kArm);
  EXPECT_EQ(e.token, "+r99");
  EXPECT_EQ(e.position, 4u);
}

} // namespace
} // namespace xsdt
