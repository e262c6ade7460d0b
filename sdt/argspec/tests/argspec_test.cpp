// Tests of the generic arg-spec layer: `[-]SIZE[f]@OPERAND`, argument lists,
// error positions and texts, the grammar toolkit and the portability rules
// that hold on every arch. They run on the fixture arches of fixture_arch.h,
// never on a real one: each arch's grammar and register table are tested in
// arches/<arch>/tests/.
#include "argspec_testing.h"
#include "fixture_arch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace xsdt {
namespace {

using tests::has;
using tests::kFixture;
using tests::kFixture32;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

// ---- Spec layer -----------------------------------------------------------

TEST(Spec, SizeSignAndFloat) {
  ArgLocation a = must_parse("-4@%r0", kFixture);
  EXPECT_EQ(a.size, 4);
  EXPECT_TRUE(a.is_signed);
  EXPECT_FALSE(a.is_float);
  EXPECT_EQ(a.spec, "-4@%r0");
  EXPECT_EQ(a.operand, "%r0");
  ArgLocation f = must_parse("8f@%r7", kFixture);
  EXPECT_EQ(f.size, 8);
  EXPECT_FALSE(f.is_signed);
  EXPECT_TRUE(f.is_float);
  EXPECT_EQ(must_parse("1@%b0", kFixture).size, 1);
  EXPECT_EQ(must_parse("2@%w0", kFixture).size, 2);
}

TEST(Spec, Errors) {
  ParseError e = must_fail("3@%r0", kFixture);
  EXPECT_EQ(e.token, "3");
  EXPECT_EQ(e.position, 0u);
  e = must_fail("-16@%r0", kFixture);
  EXPECT_EQ(e.token, "16");
  EXPECT_EQ(e.position, 1u);
  e = must_fail("@%r0", kFixture);
  EXPECT_EQ(e.position, 0u);
  e = must_fail("4@", kFixture);
  EXPECT_TRUE(has(e.message, "missing operand"));
  // Without a size prefix the whole spec is an operand (SDT v1), so these
  // fail as operands.
  e = must_fail("4%r0", kFixture);
  EXPECT_EQ(e.token, "%r0");
  EXPECT_EQ(e.position, 1u);
  e = must_fail("4x@%r0", kFixture);
  EXPECT_EQ(e.token, "4x");
  EXPECT_EQ(e.position, 0u);
}

// SDT v1 notes give operands without `SIZE@`; gdb's stap-probe.c reads them
// as a `long` (the test for a prefix: `[-]DIGIT@`). The parser does the same
// and says why such a spec is not portable.
TEST(Spec, WithoutSizeIsASignedWord) {
  ArgLocation r = must_parse("%r3", kFixture);
  EXPECT_FALSE(r.sized);
  EXPECT_EQ(r.size, 8);
  EXPECT_TRUE(r.is_signed);
  EXPECT_EQ(r.kind, LocationKind::Register);
  EXPECT_EQ(r.operand, "%r3");
  EXPECT_EQ(must_parse("%r3", kFixture32).size, 4);
  ArgLocation m = must_parse("[%r1, -8]", kFixture);
  EXPECT_FALSE(m.sized);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.displacement, -8);
  EXPECT_TRUE(must_parse("4@%r0", kFixture).sized);
  EXPECT_TRUE(has(violation("%r3", kFixture), "SDT v1"));
  EXPECT_EQ(violation("8@%r3", kFixture), "");
  auto both = parse_arg_specs("%r1 -4@%r2", kFixture);
  ASSERT_TRUE(both);
  EXPECT_FALSE(both.value()[0].sized);
  EXPECT_TRUE(both.value()[1].sized);
}

// An unknown register names the arch and keeps the register prefix.
TEST(Spec, ErrorTextNamesTokenAndPosition) {
  ParseError e = must_fail("-4@%foo", kFixture);
  EXPECT_EQ(e.token, "%foo");
  EXPECT_EQ(e.position, 3u);
  EXPECT_EQ(e.to_string(),
            "bad token '%foo' at position 3: unknown fixture register");
}

TEST(Spec, ErrorAtTheEndNamesTheSpec) {
  auto r = parse_arg_specs("-4@%w0 8@[%r1, -8", kFixture);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "");
  EXPECT_EQ(r.error().position, 17u);
  EXPECT_EQ(r.error().spec, "8@[%r1, -8");
  EXPECT_EQ(r.error().to_string(),
            "at position 17, the end of '8@[%r1, -8': expected ']'");
}

TEST(Spec, ErrorTextWithoutTokenOrSpec) {
  ParseError e;
  e.message = "something";
  e.position = 3;
  EXPECT_EQ(e.to_string(), "at position 3: something");
}

TEST(Spec, ArchName) {
  EXPECT_EQ(arch_name(kFixture), "fixture");
  EXPECT_EQ(arch_name(kFixture32), "fixture32");
  EXPECT_NE(kFixture, kFixture32);
}

TEST(Registers, Lookup) {
  EXPECT_TRUE(lookup_register(kFixture, "w3"));
  EXPECT_FALSE(lookup_register(kFixture32, "w3"));
  EXPECT_FALSE(lookup_register(kFixture, "%r0")); // names come without '%'
  EXPECT_EQ(lookup_register(kFixture32, "pc")->cls,
            RegisterClass::ProgramCounter);
  EXPECT_EQ(lookup_register(kFixture, "zr")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kFixture32, "zr")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kFixture, "v3")->dwarf, 16 + 3);
  EXPECT_EQ(lookup_register(kFixture, "h2")->full_name, "r2");
  EXPECT_FALSE(lookup_register(kFixture, "v4"));
}

TEST(Spec, TwoByteFloatIsNotPortable) {
  EXPECT_TRUE(has(violation("2f@%r0", kFixture), "floating-point"));
  EXPECT_EQ(violation("4f@%r0", kFixture), "");
}

// ---- The toolkit: numbers and expressions ----------------------------------

TEST(Toolkit, Numbers) {
  EXPECT_EQ(must_parse("-4@-7", kFixture).immediate, -7);
  EXPECT_EQ(must_parse("-4@-7", kFixture).kind, LocationKind::Immediate);
  EXPECT_EQ(must_parse("4@0x10", kFixture).immediate, 16);
  EXPECT_EQ(must_parse("4@0XfF", kFixture).immediate, 255);
  EXPECT_EQ(must_parse("4@-0x10", kFixture).immediate, -16);
  EXPECT_EQ(must_parse("8@0", kFixture).immediate, 0);
  EXPECT_EQ(must_parse("8@+8", kFixture).immediate, 8);
  EXPECT_EQ(must_parse("8@20015998343868", kFixture).immediate, 20015998343868);
  EXPECT_EQ(must_parse("8@18446744073709551615", kFixture).immediate, -1);
  EXPECT_EQ(must_parse("-8@-9223372036854775808", kFixture).immediate,
            INT64_MIN);
}

TEST(Toolkit, Expressions) {
  ArgLocation sum = must_parse("4@1+2", kFixture);
  EXPECT_EQ(sum.immediate, 3);
  EXPECT_TRUE(sum.constant_expression);
  EXPECT_TRUE(has(violation("4@1+2", kFixture), "expression"));
  ArgLocation m = must_parse("-4@[%r6, -4+16-16]", kFixture);
  EXPECT_EQ(m.displacement, -4);
  EXPECT_TRUE(m.constant_expression);
  EXPECT_TRUE(has(violation("-4@[%r6, -4+16-16]", kFixture), "expression"));
  // Later terms fold modulo 2^64, as the assembler does.
  EXPECT_EQ(must_parse("8@18446744073709551615+2", kFixture).immediate, 1);
  EXPECT_FALSE(must_parse("4@42", kFixture).constant_expression);
}

TEST(Toolkit, Symbols) {
  ArgLocation s = must_parse("4@sym", kFixture);
  EXPECT_EQ(s.kind, LocationKind::Symbolic);
  EXPECT_EQ(s.symbolic_reason, "needs symbol resolution: sym");
  EXPECT_EQ(violation("4@sym", kFixture), "needs symbol resolution: sym");
  EXPECT_EQ(must_parse("4@sym+8", kFixture).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("4@sym-8", kFixture).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@x@GOTPCREL", kFixture).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@.LC0", kFixture).kind, LocationKind::Symbolic);
  ArgLocation m = must_parse("-4@[%r1, g@GOTOFF]", kFixture);
  EXPECT_EQ(m.kind, LocationKind::Symbolic);
  EXPECT_EQ(m.base_reg, "r1");
  EXPECT_EQ(violation("-4@[%r1, g@GOTOFF]", kFixture),
            "needs symbol resolution: [%r1, g@GOTOFF]");
}

TEST(Toolkit, Errors) {
  struct Case {
    const char *spec;
    const char *token;
    std::size_t position;
  };
  for (Case c :
       {Case{"4@%foo", "%foo", 2}, Case{"4@%R0", "%R0", 2}, Case{"4@%", "%", 2},
        Case{"4@07", "07", 2}, Case{"4@0x", "0x", 2},
        Case{"4@99999999999999999999", "99999999999999999999", 2},
        Case{"4@12ab", "12ab", 2},
        Case{"-8@-9223372036854775809", "9223372036854775809", 4},
        Case{"4@-", "", 3}, Case{"4@sym@", "", 6}, Case{"4@[%r1", "", 6},
        Case{"4@[%r1, 8]!", "!", 10}, Case{"4@[%r1, %r2*3]", "3", 12},
        Case{"4@[%r1, 8, 8]", "8", 11}, Case{"4@[%r1, %r2, %r3]", "%r3", 13},
        Case{"4@[%v0]", "%v0", 3}, Case{"4@[%r1, %pc]", "%pc", 8},
        Case{"4@%r0,", ",", 5}, Case{"4@()", "(", 2}}) {
    ParseError e = must_fail(c.spec, kFixture);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
    EXPECT_EQ(e.position, c.position) << c.spec << ": " << e.to_string();
    EXPECT_FALSE(e.message.empty()) << c.spec;
  }
}

// ---- gdb expressions (expression.cpp) -------------------------------------
//
// gdb reads an operand as an expression of the arch's operands joined by the
// assembler's infix operators (stap-probe.c: stap_parse_argument_1, its
// precedence table and stap_is_operator), with parentheses for grouping.
// Only gdb evaluates one, so such a spec parses as Symbolic.

TEST(Expression, IsSymbolicOnlyGdbEvaluatesIt) {
  ArgLocation e = must_parse("8@%r1+%r2", kFixture);
  EXPECT_EQ(e.kind, LocationKind::Symbolic);
  EXPECT_EQ(e.symbolic_reason,
            "gdb expression (operators): only gdb evaluates it: %r1+%r2");
  EXPECT_EQ(violation("8@%r1+%r2", kFixture),
            "gdb expression (operators): only gdb evaluates it: %r1+%r2");
  EXPECT_EQ(e.size, 8);
  EXPECT_EQ(e.operand, "%r1+%r2");
  // The first register it names, for information.
  EXPECT_EQ(e.base_reg, "r1");
  ArgLocation p = must_parse("-4@( %r3)", kFixture);
  EXPECT_EQ(p.kind, LocationKind::Symbolic);
  EXPECT_EQ(p.symbolic_reason,
            "gdb expression (parentheses): only gdb evaluates it: ( %r3)");
  EXPECT_TRUE(p.is_signed);
  EXPECT_EQ(must_parse("8@2*3", kFixture).base_reg, "");
}

TEST(Expression, EveryBinaryOperator) {
  for (const char *op : {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
                         "&&", "||", "==", "!=", "<>", "<", "<=", ">", ">="}) {
    const std::string spec = std::string("8@%r1") + op + "%r2";
    ArgLocation e = must_parse(spec, kFixture);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "operators")) << spec;
  }
}

TEST(Expression, UnaryOperators) {
  for (const char *spec : {"8@-%r1", "8@+%r1", "8@~%r1", "8@!%r1", "8@-(2)",
                           "8@!!%r3", "8@~-(2*%r1)", "8@-(3)"})
    EXPECT_EQ(must_parse(spec, kFixture).kind, LocationKind::Symbolic) << spec;
  // A signed number is the grammar's own immediate, as before.
  EXPECT_EQ(must_parse("8@-3", kFixture).kind, LocationKind::Immediate);
}

// Operands are the arch's own, memory operands included; what the grammar
// reads whole stays what it was.
TEST(Expression, OperandsAreTheArchs) {
  for (const char *spec : {"4@[%r6, -8]*2", "8@#4+%r1", "8@(3+8)<<2",
                           "8@((2+%r1)*[%r6, -8])<<1", "8@%r1+0x10"})
    EXPECT_EQ(must_parse(spec, kFixture).kind, LocationKind::Symbolic) << spec;
  ArgLocation plain = must_parse("4@1+2", kFixture);
  EXPECT_EQ(plain.kind, LocationKind::Immediate);
  EXPECT_EQ(plain.immediate, 3);
  EXPECT_EQ(must_parse("-4@[%r6, -4+16-16]", kFixture).kind,
            LocationKind::Memory);
  EXPECT_EQ(must_parse("4@sym+8", kFixture).symbolic_reason,
            "needs symbol resolution: sym+8");
}

// gdb's expressions name registers and numbers, never symbols: an operand
// that would need one is no expression, and the grammar's error stands.
TEST(Expression, NoSymbols) {
  ParseError e = must_fail("8@sym*2", kFixture);
  EXPECT_EQ(e.token, "*2");
  EXPECT_EQ(e.position, 5u);
  EXPECT_TRUE(has(e.message, "unexpected text after the operand"));
  EXPECT_EQ(must_fail("8@%r1+(sym)", kFixture).token, "+(sym)");
  EXPECT_EQ(must_fail("8@%r1+( sym)", kFixture).token, "+( sym)");
}

TEST(Expression, WithoutSize) {
  ArgLocation e = must_parse("%r1*%r2", kFixture);
  EXPECT_FALSE(e.sized);
  EXPECT_EQ(e.kind, LocationKind::Symbolic);
  EXPECT_TRUE(has(violation("%r1*%r2", kFixture), "SDT v1"));
}

// gdb skips spaces inside parentheses only; outside them a space ends the
// spec.
TEST(Expression, SpacesInsideParentheses) {
  EXPECT_EQ(must_parse("8@( %r1 + 2 )", kFixture).kind, LocationKind::Symbolic);
  auto r = parse_arg_specs("8@(2 + %r1)*4 -4@%w0 8@( ( 1 ) )", kFixture);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].spec, "8@(2 + %r1)*4");
  EXPECT_EQ((*r)[1].base_reg, "w0");
  EXPECT_EQ((*r)[2].kind, LocationKind::Symbolic);
  auto s = split_arg_specs("8@(2 + %r1) 4@%r0");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->size(), 2u);
  EXPECT_EQ((*s)[1].position, 12u);
  // A parenthesis that does not close keeps no space.
  auto u = split_arg_specs("8@(%r1 4@%r0");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->size(), 2u);
}

TEST(Expression, Errors) {
  struct Case {
    const char *spec;
    const char *token;
    std::size_t position;
    const char *message;
  };
  for (Case c : {
           Case{"8@(2+%r1", "(", 2, "unbalanced '('"},
           Case{"8@((2)", "(", 2, "unbalanced '('"},
           Case{"8@%r1+2)", ")", 7, "unbalanced ')'"},
           Case{"8@%r1+", "", 6, "expected an operand after '+'"},
           Case{"8@(2*)", ")", 5, "expected a number or a symbol"},
           Case{"8@%r1+%foo", "%foo", 6, "unknown fixture register"},
           Case{"8@-%foo", "%foo", 3, "unknown fixture register"},
           Case{"8@(2 #2)", "#2", 5, "expected an operator or ')'"},
           // A parenthesis before the register prefix is the arch's
           // indirection (gdb's, on AT&T arches), never a group.
           Case{"8@(%r1)", "(", 2, "expected a number or a symbol"},
           Case{"8@%r1**2", "*", 6, "expected a number or a symbol"},
           Case{"8@%r1+2=3", "=3", 7, "expected an operator"},
           Case{"8@%r1+2!3", "!3", 7, "expected an operator"},
           Case{"8@%r1+[%r1", "", 10, "expected ']'"},
           // Nothing read as an expression: the grammar's error, as before.
           Case{"8@%r1=2", "=2", 5, "unexpected text after the operand"},
           Case{"8@()", "(", 2, "expected a number or a symbol"},
       }) {
    ParseError e = must_fail(c.spec, kFixture);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
    EXPECT_EQ(e.position, c.position) << c.spec << ": " << e.to_string();
    EXPECT_TRUE(has(e.message, c.message)) << c.spec << ": " << e.to_string();
  }
  // Positions are in the whole args string.
  auto r = parse_arg_specs("4@%r0 8@(2+%r1", kFixture);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "(");
  EXPECT_EQ(r.error().position, 8u);
}

TEST(Expression, NestingIsBounded) {
  const std::string deep =
      "8@" + std::string(100, '(') + "1" + std::string(100, ')');
  ParseError e = must_fail(deep, kFixture);
  EXPECT_TRUE(has(e.message, "nested too deeply")) << e.to_string();
  const std::string shallow =
      "8@" + std::string(20, '(') + "1+%r1" + std::string(20, ')');
  EXPECT_EQ(must_parse(shallow, kFixture).kind, LocationKind::Symbolic);
  EXPECT_TRUE(
      has(must_fail("8@" + std::string(100, '-') + "%r1", kFixture).message,
          "nested too deeply"));
}

// ---- Locations the fixture's grammar builds --------------------------------

TEST(Location, RegisterAndMemory) {
  ArgLocation r = must_parse("1@%h1", kFixture);
  EXPECT_EQ(r.kind, LocationKind::Register);
  EXPECT_EQ(r.base_reg, "h1");
  ASSERT_TRUE(r.base.has_value());
  EXPECT_EQ(r.base->full_name, "r1");
  EXPECT_EQ(r.base->bit_offset, 8);
  EXPECT_EQ(r.base->bit_width, 8);
  ArgLocation m = must_parse("-2@[%r5, %r4*2, 16]", kFixture);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base_reg, "r5");
  EXPECT_EQ(m.index_reg, "r4");
  EXPECT_EQ(m.scale, 2);
  EXPECT_EQ(m.displacement, 16);
  EXPECT_TRUE(m.has_displacement);
  ArgLocation z = must_parse("8@[%r6]", kFixture);
  EXPECT_EQ(z.kind, LocationKind::Memory);
  EXPECT_FALSE(z.has_displacement);
  EXPECT_EQ(z.scale, 0);
  ArgLocation h = must_parse("8@[%r0, #8]", kFixture);
  EXPECT_EQ(h.displacement, 8);
  EXPECT_TRUE(h.hash_immediate);
  ArgLocation abs = must_parse("4@[1234]", kFixture);
  EXPECT_FALSE(abs.base.has_value());
  EXPECT_EQ(abs.displacement, 1234);
}

// ---- The generic portability rules ----------------------------------------

TEST(Portability, Registers) {
  EXPECT_EQ(violation("8@%r0", kFixture), "");
  EXPECT_EQ(violation("4@%w0", kFixture), "");
  EXPECT_EQ(violation("1@%b3", kFixture), "");
  EXPECT_EQ(violation("8@%v0", kFixture),
            "vector/floating-point register %v0: tracers read integer "
            "registers only");
  EXPECT_TRUE(has(violation("8f@%v1", kFixture), "vector"));
  EXPECT_EQ(violation("8@%pc", kFixture),
            "program counter %pc does not hold an argument");
  EXPECT_EQ(violation("8@%zr", kFixture),
            "zero register %zr: libbpf cannot name it; an immediate 0 is "
            "portable");
  EXPECT_EQ(violation("1@%h0", kFixture),
            "high-byte register %h0: libbpf and bcc cannot read bits 8..15");
  // The arch's own rule comes after the generic ones.
  EXPECT_EQ(violation("8@%fp", kFixture),
            "register alias %fp: consumers know it as %r7");
  EXPECT_EQ(violation("8@%w0", kFixture),
            "8-byte value in 32-bit register %w0: its upper bytes are "
            "undefined");
  EXPECT_TRUE(has(violation("4@%b0", kFixture), "upper bytes"));
  // An arch's own reason for a value wider than a register.
  EXPECT_EQ(violation("-8@%r0", kFixture32),
            std::string("8-byte value in a register on fixture32: ") +
                tests::kFixture32WideReason);
  EXPECT_EQ(violation("-4@%r0", kFixture32), "");
}

TEST(Portability, Memory) {
  EXPECT_EQ(violation("-4@[%r6, -28]", kFixture), "");
  EXPECT_EQ(violation("8@[%r6]", kFixture), "");
  EXPECT_EQ(violation("4@[1234]", kFixture),
            "absolute address [1234]: consumers read only register-relative "
            "memory");
  EXPECT_TRUE(has(violation("4@[%pc, 8]", kFixture), "PC-relative"));
  EXPECT_EQ(violation("4@[%zr, 8]", kFixture),
            "base: zero register %zr: libbpf cannot name it; an immediate 0 "
            "is portable");
  EXPECT_EQ(violation("4@[%fp, 8]", kFixture),
            "base: register alias %fp: consumers know it as %r7");
  EXPECT_EQ(violation("4@[%w1, 8]", kFixture),
            "32-bit address register %w1 on fixture: tracers add the full "
            "64-bit register");
  // The arch's memory rule: after the base register, before the generic
  // index rule.
  EXPECT_TRUE(has(violation("4@[%w1, %r2*4]", kFixture), "32-bit address"));
  EXPECT_EQ(violation("4@[%r1, %r2*4]", kFixture),
            "scaled index in [%r1, %r2*4]: fixture consumers read unscaled "
            "indexes only");
  EXPECT_EQ(violation("4@[%r1, %r2]", kFixture),
            "index register %r2 in [%r1, %r2]: libbpf and bcc reject index "
            "registers");
  EXPECT_EQ(violation("8@[%r0, #8]", kFixture),
            "'#' before the offset in [%r0, #8]: libbpf reads only bare "
            "offsets such as [sp, 16]");
  EXPECT_EQ(violation("8@[%r0, 4+4]", kFixture),
            "displacement expression [%r0, 4+4]: libbpf reads a single "
            "number");
  EXPECT_EQ(violation("-8@[%r5, 64]", kFixture32), "");
}

TEST(Portability, Immediates) {
  EXPECT_EQ(violation("-4@42", kFixture), "");
  EXPECT_EQ(violation("-8@20015998343868", kFixture), "");
  EXPECT_EQ(violation("-4@#42", kFixture),
            "'#' immediate #42: libbpf reads only bare numbers such as 42");
  EXPECT_EQ(violation("4@1+2", kFixture),
            "immediate expression 1+2: libbpf reads a single number");
  EXPECT_EQ(violation("-8@5", kFixture), "");
  EXPECT_EQ(violation("-8@4886718345", kFixture32),
            "8-byte immediate on fixture32: gdb truncates it to 32 bits; "
            "pass it in memory");
  EXPECT_EQ(violation("-4@5", kFixture32), "");
}

TEST(Portability, FloatSizes) {
  EXPECT_EQ(violation("8f@%r0", kFixture), "");
  EXPECT_EQ(violation("4f@[%r6, 8]", kFixture), "");
  EXPECT_EQ(violation("1f@%b0", kFixture),
            "1-byte floating-point value: only 4f and 8f are defined");
}

// ---- Argument lists -------------------------------------------------------

TEST(Args, EmptyAndColonMeanNone) {
  for (const char *args : {"", ":", ":anything"}) {
    auto r = parse_arg_specs(args, kFixture);
    ASSERT_TRUE(r) << args;
    EXPECT_TRUE(r->empty());
  }
}

TEST(Args, SplitsOnSingleSpaces) {
  auto r = parse_arg_specs("-4@%w0 8@[%r6, -8]", kFixture);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].base_reg, "w0");
  EXPECT_EQ((*r)[1].displacement, -8);
  auto s = split_arg_specs("-4@%w0 8@[%r6, -8]");
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)[1].position, 7u);
  EXPECT_EQ((*s)[1].text, "8@[%r6, -8]");
}

TEST(Args, BracketsKeepTheirSpace) {
  auto r = parse_arg_specs("-4@[%r0, sym] 8@[%r6, 16] -4@%r1", kFixture);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind, LocationKind::Symbolic);
  EXPECT_EQ((*r)[1].displacement, 16);
  EXPECT_EQ((*r)[2].base_reg, "r1");
}

TEST(Args, TwelveAtMost) {
  std::string twelve = "1@1";
  for (int i = 1; i < 12; ++i)
    twelve += " 1@1";
  auto r = parse_arg_specs(twelve, kFixture);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), 12u);
  auto e = parse_arg_specs(twelve + " 4@%r0", kFixture);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().token, "4@%r0");
  EXPECT_EQ(e.error().position, twelve.size() + 1);
  EXPECT_TRUE(has(e.error().message, "more than 12"));
}

TEST(Args, SpacingErrors) {
  auto two = parse_arg_specs("-4@%w0  -4@%w1", kFixture);
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().position, 7u);
  auto lead = parse_arg_specs(" -4@%w0", kFixture);
  ASSERT_FALSE(lead);
  EXPECT_EQ(lead.error().position, 0u);
  auto trail = parse_arg_specs("-4@%w0 ", kFixture);
  ASSERT_FALSE(trail);
  EXPECT_EQ(trail.error().position, 6u);
}

TEST(Args, ErrorPositionsAreInTheWholeString) {
  auto r = parse_arg_specs("-4@%w0 4@%foo", kFixture);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "%foo");
  EXPECT_EQ(r.error().position, 9u);
  EXPECT_TRUE(has(r.error().to_string(), "bad token '%foo' at position 9"));
  auto a = parse_arg_specs("8@[%r6, 16] 8@[%r0, 8]!", kFixture);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().token, "!");
  EXPECT_EQ(a.error().position, 22u);
}

TEST(Kind, Names) {
  EXPECT_EQ(kind_name(LocationKind::Register), "register");
  EXPECT_EQ(kind_name(LocationKind::Memory), "memory");
  EXPECT_EQ(kind_name(LocationKind::Immediate), "immediate");
  EXPECT_EQ(kind_name(LocationKind::Symbolic), "symbolic");
}

} // namespace
} // namespace xsdt
