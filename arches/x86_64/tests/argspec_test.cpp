// The x86_64 operand grammar (AT&T, arches/x86), register table and
// portability rules, through the generic parser.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kX64 = *parse_arch("x86_64");

TEST(X86_64, NameAndAliases) {
  EXPECT_EQ(parse_arch("x86_64"), kX64);
  EXPECT_EQ(parse_arch("x86-64"), kX64);
  EXPECT_EQ(parse_arch(arch_name(kX64)), kX64);
}

TEST(X86_64, ErrorTextNamesTokenAndPosition) {
  ParseError e = must_fail("-4@%foo", kX64);
  EXPECT_EQ(e.token, "%foo");
  EXPECT_EQ(e.position, 3u);
  EXPECT_EQ(e.to_string(),
            "bad token '%foo' at position 3: unknown x86_64 register");
}

TEST(X86_64, ErrorAtTheEndNamesTheSpec) {
  auto r = parse_arg_specs("-4@%eax 8@-8(%rbx", kX64);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "");
  EXPECT_EQ(r.error().position, 17u);
  EXPECT_EQ(r.error().spec, "8@-8(%rbx");
  EXPECT_EQ(r.error().to_string(),
            "at position 17, the end of '8@-8(%rbx': expected ')'");
}

TEST(X86_64, Lookup) {
  EXPECT_TRUE(lookup_register(kX64, "r8b"));
  EXPECT_FALSE(lookup_register(kX64, "%rax")); // names come without '%'
}

// AVX-512 has xmm0..xmm31 and no more: an operand naming %xmm32 is no
// register at all, not a vector register the evaluator refuses.
TEST(X86_64, VectorRegistersEndAtXmm31) {
  auto xmm31 = lookup_register(kX64, "xmm31");
  ASSERT_TRUE(xmm31);
  EXPECT_EQ(xmm31->cls, RegisterClass::Vector);
  EXPECT_FALSE(lookup_register(kX64, "xmm32"));
  EXPECT_EQ(must_fail("8@%xmm32", kX64).to_string(),
            "bad token '%xmm32' at position 2: unknown x86_64 register");
}

TEST(X86_64, EveryRegisterWidth) {
  for (const char *name :
       {"rax", "eax", "ax",   "al",   "rbx",  "ebx", "bx",  "bl",  "rcx",
        "cl",  "rdx", "dl",   "rsi",  "esi",  "si",  "sil", "rdi", "dil",
        "rbp", "bpl", "rsp",  "esp",  "sp",   "spl", "r8",  "r8d", "r8w",
        "r8b", "r15", "r15d", "r15w", "r15b", "ah",  "bh",  "ch",  "dh"}) {
    std::string spec = std::string("1@%") + name;
    ArgLocation a = must_parse(spec, kX64);
    EXPECT_EQ(a.kind, LocationKind::Register) << spec;
    EXPECT_EQ(a.base_reg, name) << spec;
    ASSERT_TRUE(a.base.has_value()) << spec;
  }
}

TEST(X86_64, SubRegistersMapToFullRegister) {
  ArgLocation ah = must_parse("1@%ah", kX64);
  EXPECT_EQ(ah.base->full_name, "rax");
  EXPECT_EQ(ah.base->dwarf, 0);
  EXPECT_EQ(ah.base->bit_offset, 8);
  EXPECT_EQ(ah.base->bit_width, 8);
  ArgLocation r8d = must_parse("4@%r8d", kX64);
  EXPECT_EQ(r8d.base->full_name, "r8");
  EXPECT_EQ(r8d.base->dwarf, 8);
  EXPECT_EQ(r8d.base->bit_width, 32);
  EXPECT_EQ(must_parse("1@%sil", kX64).base->full_name, "rsi");
  EXPECT_EQ(must_parse("1@%sil", kX64).base->dwarf, 4);
  EXPECT_EQ(must_parse("4@%esp", kX64).base->dwarf, 7);
  EXPECT_EQ(must_parse("8@%rdx", kX64).base->dwarf, 1);
  EXPECT_EQ(must_parse("8@%rcx", kX64).base->dwarf, 2);
  EXPECT_EQ(must_parse("2@%bx", kX64).base->full_name, "rbx");
}

TEST(X86_64, HeaderOutputIsPortable) {
  for (const char *spec : {"-4@%rax", "8f@%r9", "-4@$-7", "-8@%rsi", "-2@%rdx",
                           "1@%rcx", "8f@%rdi", "4f@%r10", "8@%r8",
                           "-8@$20015998343868", "-1@$-1", "-4@$42", "-4@%rbx"})
    EXPECT_EQ(violation(spec, kX64), "") << spec;
}

TEST(X86_64, Immediates) {
  EXPECT_EQ(must_parse("-4@$-7", kX64).immediate, -7);
  EXPECT_EQ(must_parse("-4@$-7", kX64).kind, LocationKind::Immediate);
  EXPECT_EQ(must_parse("4@$0x10", kX64).immediate, 16);
  EXPECT_EQ(must_parse("4@$0XfF", kX64).immediate, 255);
  EXPECT_EQ(must_parse("4@$-0x10", kX64).immediate, -16);
  EXPECT_EQ(must_parse("8@$0", kX64).immediate, 0);
  EXPECT_EQ(must_parse("8@$20015998343868", kX64).immediate, 20015998343868);
  EXPECT_EQ(must_parse("8@$18446744073709551615", kX64).immediate, -1);
  EXPECT_EQ(must_parse("-8@$-9223372036854775808", kX64).immediate, INT64_MIN);
  EXPECT_TRUE(has(violation("4@$1+2", kX64), "expression"));
}

// An 8-byte immediate fits a 64-bit register (on i386 it does not:
// I386.NonPortable).
TEST(X86_64, EightByteImmediate) { EXPECT_EQ(violation("-8@$5", kX64), ""); }

TEST(X86_64, Memory) {
  ArgLocation m = must_parse("-4@-28(%rsp)", kX64);
  EXPECT_EQ(m.kind, LocationKind::Memory);
  EXPECT_EQ(m.base_reg, "rsp");
  EXPECT_EQ(m.displacement, -28);
  EXPECT_TRUE(m.has_displacement);
  EXPECT_EQ(m.scale, 0);
  EXPECT_EQ(violation("-4@-28(%rsp)", kX64), "");
  ArgLocation z = must_parse("8@(%rsp)", kX64);
  EXPECT_EQ(z.kind, LocationKind::Memory);
  EXPECT_FALSE(z.has_displacement);
  EXPECT_EQ(violation("8@(%rsp)", kX64), "");
  EXPECT_EQ(must_parse("8@0x10(%rbp)", kX64).displacement, 16);
  EXPECT_EQ(violation("-8@-24(%rbp)", kX64), "");
  EXPECT_EQ(violation("4@8(%r12)", kX64), "");
}

TEST(X86_64, Sib) {
  ArgLocation s = must_parse("-2@16(%rdi,%rsi,2)", kX64);
  EXPECT_EQ(s.kind, LocationKind::Memory);
  EXPECT_EQ(s.base_reg, "rdi");
  EXPECT_EQ(s.index_reg, "rsi");
  EXPECT_EQ(s.scale, 2);
  EXPECT_EQ(s.displacement, 16);
  EXPECT_TRUE(has(violation("-2@16(%rdi,%rsi,2)", kX64), "index register"));
  ArgLocation n = must_parse("4@(,%rax,4)", kX64);
  EXPECT_TRUE(n.base_reg.empty());
  EXPECT_EQ(n.index_reg, "rax");
  EXPECT_EQ(n.scale, 4);
  EXPECT_NE(violation("4@(,%rax,4)", kX64), "");
  EXPECT_EQ(must_parse("4@(%rax,%rbx)", kX64).scale, 1);
  EXPECT_EQ(must_parse("4@(%eax,%ebx,8)", kX64).index_reg, "ebx");
}

TEST(X86_64, Symbolic) {
  ArgLocation g = must_parse("-4@g(%rip)", kX64);
  EXPECT_EQ(g.kind, LocationKind::Symbolic);
  EXPECT_EQ(g.symbolic_reason, "needs symbol resolution: g(%rip)");
  EXPECT_EQ(g.base_reg, "rip");
  EXPECT_EQ(violation("-4@g(%rip)", kX64), "needs symbol resolution: g(%rip)");
  EXPECT_EQ(must_parse("-4@sym+8(%rip)", kX64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("-4@sym-8(%rip)", kX64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@x@GOTPCREL(%rip)", kX64).kind,
            LocationKind::Symbolic);
  EXPECT_EQ(must_parse("4@sym", kX64).symbolic_reason,
            "needs symbol resolution: sym");
  EXPECT_EQ(must_parse("8@$.LC0", kX64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("4@arr(,%rax,4)", kX64).kind, LocationKind::Symbolic);
  ArgLocation fs = must_parse("8@%fs:0x28", kX64);
  EXPECT_EQ(fs.kind, LocationKind::Symbolic);
  EXPECT_TRUE(has(fs.symbolic_reason, "%fs segment base"));
  EXPECT_EQ(must_parse("8@%fs:x@tpoff", kX64).kind, LocationKind::Symbolic);
}

TEST(X86_64, NonPortableForms) {
  EXPECT_TRUE(has(violation("1@%ah", kX64), "high-byte register %ah"));
  EXPECT_TRUE(has(violation("1@%dh", kX64), "high-byte"));
  EXPECT_TRUE(has(violation("8@%xmm0", kX64), "vector"));
  EXPECT_TRUE(has(violation("8f@%xmm15", kX64), "vector"));
  EXPECT_TRUE(has(violation("8@%eax", kX64), "upper bytes"));
  EXPECT_TRUE(has(violation("4@%ax", kX64), "upper bytes"));
  EXPECT_EQ(violation("4@%eax", kX64), "");
  EXPECT_EQ(violation("1@%r8b", kX64), "");
  EXPECT_NE(violation("1@%r8l", kX64), "");
  EXPECT_TRUE(has(violation("-4@-4+16-16(%rbp)", kX64), "expression"));
  EXPECT_EQ(must_parse("-4@-4+16-16(%rbp)", kX64).displacement, -4);
  EXPECT_TRUE(has(violation("4@8(%rip)", kX64), "PC-relative"));
  EXPECT_TRUE(has(violation("8@%rip", kX64), "program counter"));
  EXPECT_TRUE(has(violation("4@1234", kX64), "absolute address"));
  EXPECT_EQ(must_parse("4@1234", kX64).displacement, 1234);
  EXPECT_TRUE(has(violation("4@(%eax)", kX64), "32-bit address register"));
}

TEST(X86_64, Errors) {
  struct Case {
    const char *spec;
    const char *token;
    std::size_t position;
  };
  for (Case c : {Case{"4@%foo", "%foo", 2},
                 Case{"4@%r16", "%r16", 2},
                 Case{"4@%RAX", "%RAX", 2},
                 Case{"4@$", "", 3},
                 Case{"4@$07", "07", 3},
                 Case{"4@$0x", "0x", 3},
                 Case{"4@$99999999999999999999", "99999999999999999999", 3},
                 Case{"4@$12ab", "12ab", 3},
                 Case{"4@(%rax", "", 7},
                 Case{"4@8(%rax,%rbx,3)", "3", 14},
                 Case{"4@(%rax,%rsp)", "%rsp", 8},
                 Case{"4@(%al)", "%al", 3},
                 Case{"4@()", ")", 3},
                 Case{"4@8(%rip,%rax,1)", "%rax", 3},
                 Case{"4@(%rax,%ebx)", "%ebx", 2},
                 Case{"4@%rax,", ",", 6},
                 Case{"4@%qs:8", "%qs", 2},
                 Case{"4@(%xmm0)", "%xmm0", 3},
                 Case{"4@8(rax)", "rax", 4},
                 Case{"4@$-", "", 4},
                 Case{"4@sym@", "", 6}}) {
    ParseError e = must_fail(c.spec, kX64);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
    EXPECT_EQ(e.position, c.position) << c.spec << ": " << e.to_string();
    EXPECT_FALSE(e.message.empty());
  }
}

// gdb's expressions over AT&T operands (stap-probe.c; amd64-linux-tdep.c:
// integers after '$', registers after '%', indirection in parentheses) are
// read and classified Symbolic. Vectors from gdb's testsuite:
// gdb.arch/amd64-stap-expressions.S and amd64-stap-wrong-subexp.S.
TEST(X86_64, GdbExpressions) {
  for (const char *spec :
       {"8@!($0+$1)", "-8@-($3+$4)", "-8@~$22", "8@$3+($10-$8)-$1",
        "8@$100-(($8+$10)-$50)+((($8 - $9) + $40) - $4)+$4", "8@$128&$128",
        "8@$8|$4", "-4@-($4)", "-4@$-3+($22/$2)-$16"}) {
    ArgLocation e = must_parse(spec, kX64);
    EXPECT_EQ(e.kind, LocationKind::Symbolic) << spec;
    EXPECT_TRUE(has(e.symbolic_reason, "gdb expression (operators): only gdb "
                                       "evaluates it"))
        << spec << ": " << e.symbolic_reason;
  }
  // amd64-stap-expressions.S's plus2: spaces inside the parentheses.
  auto r = parse_arg_specs("8@$100-(  ($8+$10) -$50)+$3 -4@%eax", kX64);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].kind, LocationKind::Symbolic);
  EXPECT_EQ((*r)[1].base_reg, "eax");
  // Registers and memory operands as atoms; '%' after an operand is gdb's
  // remainder operator, before one a register.
  ArgLocation m = must_parse("8@-8(%rbp)+%rax*8", kX64);
  EXPECT_EQ(m.kind, LocationKind::Symbolic);
  EXPECT_EQ(m.base_reg, "rbp");
  EXPECT_EQ(must_parse("8@%rax%%rbx", kX64).base_reg, "rax");
  EXPECT_EQ(must_parse("-4@$10%$3", kX64).kind, LocationKind::Symbolic);
  EXPECT_EQ(must_parse("8@($4)", kX64).symbolic_reason,
            "gdb expression (parentheses): only gdb evaluates it: ($4)");
}

// What the AT&T grammar reads itself is unchanged: gdb's triplet
// (gdb.arch/amd64-stap-triplet.S), constant sums, indirection.
TEST(X86_64, PlainFormsStayPlain) {
  ArgLocation t = must_parse("-4@-4+16-16(%rbp)", kX64);
  EXPECT_EQ(t.kind, LocationKind::Memory);
  EXPECT_EQ(t.displacement, -4);
  EXPECT_EQ(must_parse("4@$1+2", kX64).kind, LocationKind::Immediate);
  EXPECT_EQ(must_parse("8@(%rsp)", kX64).kind, LocationKind::Memory);
  EXPECT_EQ(must_parse("-4@g(%rip)", kX64).symbolic_reason,
            "needs symbol resolution: g(%rip)");
}

// perf's x86 SDT operands (tools/perf/arch/x86/util/perf_regs.c, its
// SDT_OP_REGEX: an optional sign, digits, optional parentheses around a
// %register; $immediates skipped) and its optional SIZE@
// (util/probe-file.c, synthesize_sdt_probe_arg).
TEST(X86_64, PerfForms) {
  EXPECT_EQ(must_parse("8@%rdi", kX64).kind, LocationKind::Register);
  EXPECT_EQ(must_parse("-4@-20(%rbp)", kX64).displacement, -20);
  EXPECT_EQ(must_parse("-4@+20(%rbp)", kX64).displacement, 20);
  EXPECT_EQ(must_parse("8@(%rsp)", kX64).base_reg, "rsp");
  EXPECT_EQ(must_parse("-4@$-1", kX64).immediate, -1);
  EXPECT_FALSE(must_parse("%rdi", kX64).sized);
}

TEST(X86_64, GdbExpressionErrors) {
  struct Case {
    const char *spec;
    const char *token;
    std::size_t position;
    const char *message;
  };
  for (Case c : {
           // gdb.arch/amd64-stap-wrong-subexp.S: gdb says "Invalid operator
           // `('"; nothing here reads '(' after an operand either.
           Case{"-4@$-3($4+$3)", "($4+$3)", 6, "unexpected text"},
           Case{"8@$3+($10-$8", "(", 5, "unbalanced '('"},
           Case{"8@$3+$10)", ")", 8, "unbalanced ')'"},
           Case{"8@$1+", "", 5, "expected an operand after '+'"},
           Case{"8@$1+%foo", "%foo", 5, "unknown x86_64 register"},
           Case{"8@-%r16", "%r16", 3, "unknown x86_64 register"},
           Case{"8@($1 $2)", "$2", 6, "expected an operator or ')'"},
       }) {
    ParseError e = must_fail(c.spec, kX64);
    EXPECT_EQ(e.token, c.token) << c.spec << ": " << e.to_string();
    EXPECT_EQ(e.position, c.position) << c.spec << ": " << e.to_string();
    EXPECT_TRUE(has(e.message, c.message)) << c.spec << ": " << e.to_string();
  }
}

// DWARF numbers of the vector registers, from the ABI (System V AMD64
// psABI, "DWARF Register Number Mapping"): xmm0..xmm15 are 17..32 and
// xmm16..xmm31 67..82. A table one off names another register to every
// tool that reads the number (xsdt-inspect's JSON).
TEST(X86_64, VectorRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kX64, {{"8f@%xmm0", 17},
                                     {"8f@%xmm15", 32},
                                     {"8f@%xmm16", 67},
                                     {"8f@%xmm31", 82}});
}

} // namespace
} // namespace xsdt
