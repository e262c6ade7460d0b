// The evaluator on x86_64 operands: the psABI's DWARF numbers, the legacy
// sub-registers and their widths.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <string>

namespace xsdt {
namespace {

using tests::compile_failure;
using tests::eval;
using tests::has;
using tests::must_compile;
using tests::u64;
using tests::zero_regs;

const Arch kX64 = *parse_arch("x86_64");

TEST(Compile, RegisterFields) {
  CompiledArg c = must_compile("-4@%eax", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Register);
  EXPECT_EQ(c.size, 4);
  EXPECT_TRUE(c.is_signed);
  EXPECT_EQ(c.base_reg, 0);
  EXPECT_EQ(c.base_bit_width, 32);

  c = must_compile("1@%ah", kX64);
  EXPECT_EQ(c.base_reg, 0);
  EXPECT_EQ(c.base_bit_offset, 8);
  EXPECT_EQ(c.base_bit_width, 8);

  EXPECT_EQ(must_compile("8@%rdx", kX64).base_reg, 1);
  EXPECT_EQ(must_compile("8@%rsp", kX64).base_reg, 7);
  EXPECT_EQ(must_compile("8@%r15", kX64).base_reg, 15);
}

TEST(Compile, MemoryFields) {
  CompiledArg c = must_compile("-2@16(%rdi,%rsi,2)", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Memory);
  EXPECT_EQ(c.base_reg, 5);
  EXPECT_EQ(c.index_reg, 4);
  EXPECT_EQ(c.scale, 2);
  EXPECT_EQ(c.displacement, 16);
  EXPECT_FALSE(c.address32);
}

TEST(Compile, Immediates) {
  CompiledArg c = must_compile("-4@$-7", kX64);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
  EXPECT_EQ(c.immediate, -7);
}

TEST(Compile, Rejections) {
  EXPECT_NE(compile_failure("-4@g(%rip)", kX64).find("needs symbol resolution"),
            std::string::npos);
  EXPECT_NE(compile_failure("8@%xmm0", kX64).find("vector"), std::string::npos);
  EXPECT_NE(compile_failure("4@8(%rip)", kX64).find("program-counter"),
            std::string::npos);
}

TEST(Evaluate, X86_64SubRegisters) {
  RegisterFile r = zero_regs();
  r.regs[0] = 0x1122334455667788; // rax
  r.regs[8] = 0x8877665544332211; // r8
  EXPECT_EQ(eval("8@%rax", kX64, r).bits, 0x1122334455667788u);
  EXPECT_EQ(eval("4@%eax", kX64, r).bits, 0x55667788u);
  EXPECT_EQ(eval("-4@%eax", kX64, r).bits, 0x55667788u);
  EXPECT_EQ(eval("2@%ax", kX64, r).bits, 0x7788u);
  EXPECT_EQ(eval("-2@%ax", kX64, r).bits, 0x7788u);
  EXPECT_EQ(eval("1@%al", kX64, r).bits, 0x88u);
  EXPECT_EQ(eval("-1@%al", kX64, r).bits, u64(-120)); // 0x88
  EXPECT_EQ(eval("1@%ah", kX64, r).bits, 0x77u);
  EXPECT_EQ(eval("-1@%ah", kX64, r).bits, 0x77u);
  EXPECT_EQ(eval("-4@%r8d", kX64, r).bits, 0x44332211u);
  EXPECT_EQ(eval("-2@%r8w", kX64, r).bits, 0x2211u);
  EXPECT_EQ(eval("1@%r8b", kX64, r).bits, 0x11u);
  EXPECT_EQ(eval("1@%r8l", kX64, r).bits, 0x11u);
  EXPECT_EQ(eval("-8@%r8", kX64, r).bits, 0x8877665544332211u);
  EXPECT_EQ(eval("-8@%r8", kX64, r).as_double,
            static_cast<double>(static_cast<std::int64_t>(0x8877665544332211)));
}

TEST(Evaluate, X86_64WidthsSignExtend) {
  RegisterFile r = zero_regs();
  r.regs[5] = 0xffffffff80000000; // rdi
  EXPECT_EQ(eval("-4@%edi", kX64, r).bits, 0xffffffff80000000u);
  EXPECT_EQ(eval("4@%edi", kX64, r).bits, 0x80000000u);
  EXPECT_EQ(eval("-4@%rdi", kX64, r).bits, 0xffffffff80000000u);
  EXPECT_EQ(eval("4@%rdi", kX64, r).bits, 0x80000000u);
  EXPECT_EQ(eval("-2@%rdi", kX64, r).bits, 0u);
  r.regs[5] = 0xfffe;
  EXPECT_EQ(eval("-2@%di", kX64, r).bits, u64(-2));
  EXPECT_EQ(eval("2@%di", kX64, r).bits, 0xfffeu);
  EXPECT_EQ(eval("-1@%dil", kX64, r).bits, u64(-2));
}

TEST(Evaluate, WorksOnCorpusStyleSpec) {
  RegisterFile r = zero_regs();
  r.regs[0] = 42;
  EXPECT_EQ(eval("-4@%rax", kX64, r).bits, 42u);
}

} // namespace
} // namespace xsdt
