#include "xsdt/argspec.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace xsdt {
namespace {

constexpr Arch kX64 = Arch::X86_64;
constexpr Arch kI386 = Arch::I386;
constexpr Arch kA64 = Arch::AArch64;
constexpr Arch kRv = Arch::RiscV64;

ArgLocation must_parse(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (!r) {
    ADD_FAILURE() << spec << ": " << r.error().to_string();
    return {};
  }
  return r.value();
}

ParseError must_fail(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (r) {
    ADD_FAILURE() << spec << " parsed, expected an error";
    return {};
  }
  return r.error();
}

// "" when portable, else the reason.
std::string violation(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (!r) {
    ADD_FAILURE() << spec << ": " << r.error().to_string();
    return "<parse error>";
  }
  return portability_violation(r.value(), arch).value_or("");
}

bool has(const std::string &text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// ---- Arch names -----------------------------------------------------------

TEST(Arch, ParsesNamesAndAliases) {
  EXPECT_EQ(parse_arch("x86_64"), kX64);
  EXPECT_EQ(parse_arch("x86-64"), kX64);
  EXPECT_EQ(parse_arch("i386"), kI386);
  EXPECT_EQ(parse_arch("aarch64"), kA64);
  EXPECT_EQ(parse_arch("riscv64"), kRv);
  EXPECT_EQ(parse_arch("mips"), std::nullopt);
  EXPECT_EQ(parse_arch(""), std::nullopt);
  for (Arch a : {kX64, kI386, kA64, kRv})
    EXPECT_EQ(parse_arch(arch_name(a)), a);
}

// ---- Spec layer -----------------------------------------------------------

TEST(Spec, SizeSignAndFloat) {
  ArgLocation a = must_parse("-4@%rax", kX64);
  EXPECT_EQ(a.size, 4);
  EXPECT_TRUE(a.is_signed);
  EXPECT_FALSE(a.is_float);
  EXPECT_EQ(a.spec, "-4@%rax");
  EXPECT_EQ(a.operand, "%rax");
  ArgLocation f = must_parse("8f@%r9", kX64);
  EXPECT_EQ(f.size, 8);
  EXPECT_FALSE(f.is_signed);
  EXPECT_TRUE(f.is_float);
  EXPECT_EQ(must_parse("1@%al", kX64).size, 1);
  EXPECT_EQ(must_parse("2@%ax", kX64).size, 2);
}

TEST(Spec, Errors) {
  ParseError e = must_fail("3@%rax", kX64);
  EXPECT_EQ(e.token, "3");
  EXPECT_EQ(e.position, 0u);
  e = must_fail("-16@%rax", kX64);
  EXPECT_EQ(e.token, "16");
  EXPECT_EQ(e.position, 1u);
  e = must_fail("@%rax", kX64);
  EXPECT_EQ(e.position, 0u);
  e = must_fail("4%rax", kX64);
  EXPECT_EQ(e.token, "%");
  EXPECT_EQ(e.position, 1u);
  e = must_fail("4", kX64);
  EXPECT_TRUE(has(e.message, "missing '@'"));
  e = must_fail("4@", kX64);
  EXPECT_TRUE(has(e.message, "missing operand"));
  e = must_fail("4x@%rax", kX64);
  EXPECT_EQ(e.token, "x");
}

TEST(Spec, ErrorTextNamesTokenAndPosition) {
  ParseError e = must_fail("-4@%foo", kX64);
  EXPECT_EQ(e.token, "%foo");
  EXPECT_EQ(e.position, 3u);
  EXPECT_EQ(e.to_string(),
            "bad token '%foo' at position 3: unknown x86_64 register");
}

TEST(Spec, ErrorAtTheEndNamesTheSpec) {
  auto r = parse_arg_specs("-4@%eax 8@-8(%rbx", kX64);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "");
  EXPECT_EQ(r.error().position, 17u);
  EXPECT_EQ(r.error().spec, "8@-8(%rbx");
  EXPECT_EQ(r.error().to_string(),
            "at position 17, the end of '8@-8(%rbx': expected ')'");
}

TEST(Registers, LookupPerArch) {
  EXPECT_TRUE(lookup_register(kX64, "r8b"));
  EXPECT_FALSE(lookup_register(kI386, "r8b"));
  EXPECT_FALSE(lookup_register(kX64, "%rax")); // names come without '%'
  EXPECT_EQ(lookup_register(kI386, "eip")->cls, RegisterClass::ProgramCounter);
  EXPECT_EQ(lookup_register(kA64, "xzr")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kRv, "zero")->cls, RegisterClass::Zero);
  EXPECT_EQ(lookup_register(kRv, "fs11")->dwarf, 32 + 27);
  EXPECT_EQ(lookup_register(kA64, "d3")->full_name, "v3");
  EXPECT_FALSE(lookup_register(kRv, "s12"));
}

TEST(Spec, TwoByteFloatIsNotPortable) {
  EXPECT_TRUE(has(violation("2f@%rax", kX64), "floating-point"));
  EXPECT_EQ(violation("4f@%rax", kX64), "");
}

// ---- x86-64 ---------------------------------------------------------------

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

// ---- i386 -----------------------------------------------------------------

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
  EXPECT_EQ(violation("-8@$5", kX64), "");
  EXPECT_TRUE(has(violation("-8@%eax", kI386), "register pair"));
  EXPECT_TRUE(has(violation("-2@16(%edi,%esi,2)", kI386), "SIB"));
  EXPECT_TRUE(has(violation("8@%xmm0", kI386), "vector"));
}

TEST(I386, Errors) {
  EXPECT_EQ(must_fail("4@8(%eip)", kI386).token, "%eip");
  EXPECT_EQ(must_fail("4@(%ax)", kI386).token, "%ax");
  EXPECT_EQ(must_fail("4@(%ebx,%esp,2)", kI386).token, "%esp");
}

// ---- AArch64 --------------------------------------------------------------

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

// ---- RISC-V 64 ------------------------------------------------------------

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

// ---- Argument lists -------------------------------------------------------

TEST(Args, EmptyAndColonMeanNone) {
  for (const char *args : {"", ":", ":anything"}) {
    auto r = parse_arg_specs(args, kX64);
    ASSERT_TRUE(r) << args;
    EXPECT_TRUE(r->empty());
  }
}

TEST(Args, SplitsOnSingleSpaces) {
  auto r = parse_arg_specs("-4@%eax 8@-8(%rbp)", kX64);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].base_reg, "eax");
  EXPECT_EQ((*r)[1].displacement, -8);
  auto s = split_arg_specs("-4@%eax 8@-8(%rbp)");
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)[1].position, 8u);
  EXPECT_EQ((*s)[1].text, "8@-8(%rbp)");
}

TEST(Args, AArch64BracketsKeepTheirSpace) {
  auto r = parse_arg_specs("-4@[x0, #:lo12:.LANCHOR0] 8@[sp, 16] -4@x1", kA64);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind, LocationKind::Symbolic);
  EXPECT_EQ((*r)[1].displacement, 16);
  EXPECT_EQ((*r)[2].base_reg, "x1");
}

TEST(Args, TwelveAtMost) {
  std::string twelve = "1@$1";
  for (int i = 1; i < 12; ++i)
    twelve += " 1@$1";
  auto r = parse_arg_specs(twelve, kX64);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), 12u);
  auto e = parse_arg_specs(twelve + " 4@%rax", kX64);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().token, "4@%rax");
  EXPECT_EQ(e.error().position, twelve.size() + 1);
  EXPECT_TRUE(has(e.error().message, "more than 12"));
}

TEST(Args, SpacingErrors) {
  auto two = parse_arg_specs("4@%eax  4@%ebx", kX64);
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().position, 7u);
  auto lead = parse_arg_specs(" 4@%eax", kX64);
  ASSERT_FALSE(lead);
  EXPECT_EQ(lead.error().position, 0u);
  auto trail = parse_arg_specs("4@%eax ", kX64);
  ASSERT_FALSE(trail);
  EXPECT_EQ(trail.error().position, 6u);
}

TEST(Args, ErrorPositionsAreInTheWholeString) {
  auto r = parse_arg_specs("4@%eax 4@%foo", kX64);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().token, "%foo");
  EXPECT_EQ(r.error().position, 9u);
  EXPECT_TRUE(has(r.error().to_string(), "bad token '%foo' at position 9"));
  auto a = parse_arg_specs("8@[sp, 16] 8@[x0, 8]!", kA64);
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().token, "!");
  EXPECT_EQ(a.error().position, 20u);
}

TEST(Kind, Names) {
  EXPECT_EQ(kind_name(LocationKind::Register), "register");
  EXPECT_EQ(kind_name(LocationKind::Memory), "memory");
  EXPECT_EQ(kind_name(LocationKind::Immediate), "immediate");
  EXPECT_EQ(kind_name(LocationKind::Symbolic), "symbolic");
}

} // namespace
} // namespace xsdt
