// The evaluator on aarch64 operands: x registers, sp and their w views,
// the zero register, bracketed memory.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace xsdt {
namespace {

using tests::compile_failure;
using tests::eval;
using tests::FakeMemory;
using tests::must_compile;
using tests::u64;
using tests::zero_regs;

const Arch kA64 = *parse_arch("aarch64");

TEST(Compile, RegisterFields) {
  EXPECT_EQ(must_compile("8@x30", kA64).base_reg, 30);
  EXPECT_EQ(must_compile("8@sp", kA64).base_reg, 31);
}

TEST(Compile, MemoryFields) {
  CompiledArg c = must_compile("4@[x29, -8]", kA64);
  EXPECT_EQ(c.base_reg, 29);
  EXPECT_EQ(c.displacement, -8);
}

TEST(Compile, Immediates) {
  EXPECT_EQ(must_compile("4@42", kA64).immediate, 42);
}

TEST(Compile, ZeroRegistersBecomeImmediateZero) {
  CompiledArg c = must_compile("8@xzr", kA64);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
  EXPECT_EQ(c.immediate, 0);
}

TEST(Compile, Rejections) {
  EXPECT_NE(compile_failure("8@d0", kA64).find("vector"), std::string::npos);
}

TEST(Evaluate, Immediates) {
  RegisterFile r = zero_regs();
  EXPECT_EQ(eval("-8@-9", kA64, r).bits, u64(-9));
}

TEST(Evaluate, AArch64Registers) {
  RegisterFile r = zero_regs();
  r.regs[3] = 0xfffffffffffffff9;
  r.regs[31] = 0x7ff0;
  EXPECT_EQ(eval("-4@x3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("4@x3", kA64, r).bits, 0xfffffff9u);
  EXPECT_EQ(eval("-8@x3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("8@sp", kA64, r).bits, 0x7ff0u);
  EXPECT_EQ(eval("-4@w3", kA64, r).bits, u64(-7));
  EXPECT_EQ(eval("8@xzr", kA64, r).bits, 0u);
}

TEST(Evaluate, FloatInAnXRegister) {
  RegisterFile r = zero_regs();
  double d = 6.25e100;
  std::uint64_t db;
  std::memcpy(&db, &d, 8);
  r.regs[4] = db;
  EXPECT_EQ(eval("8f@x4", kA64, r).as_double, 6.25e100);
}

TEST(Evaluate, AArch64Memory) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(128, 0);
  std::int32_t v = -123456;
  m.put(0x4000 + 96, &v, 4);
  RegisterFile r = zero_regs();
  r.regs[31] = 0x4000; // sp
  EXPECT_EQ(eval("-4@[sp, 96]", kA64, r, &m).bits, u64(-123456));
  r.regs[1] = 0x4000 + 96;
  EXPECT_EQ(eval("-4@[x1]", kA64, r, &m).bits, u64(-123456));
  r.regs[29] = 0x4000 + 104;
  EXPECT_EQ(eval("4@[x29, -8]", kA64, r, &m).bits, 0xfffe1dc0u);
}

// sxtw sign-extends a w index, uxtw zero-extends it (found by
// fuzz_argeval: the evaluator used to zero-extend both).
TEST(Evaluate, AArch64IndexExtends) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(64, 0);
  std::int32_t v = -7;
  m.put(0x4000 + 8, &v, 4);
  RegisterFile r = zero_regs();
  r.regs[1] = 0x4000 + 16;
  r.regs[2] = 0xfffffffe; // w2 = -2
  EXPECT_EQ(eval("-4@[x1, w2, sxtw #2]", kA64, r, &m).bits, u64(-7));
  EXPECT_EQ(m.last_addr, 0x4000u + 8);
  r.regs[1] = 0x4000 + 8 - 4 * 0xfffffffeull;
  EXPECT_EQ(eval("-4@[x1, w2, uxtw #2]", kA64, r, &m).bits, u64(-7));
  EXPECT_EQ(m.last_addr, 0x4000u + 8);
  // Both read w2 alone, whatever x2's upper half holds.
  r.regs[2] = 0xabcd0001fffffffe;
  EXPECT_EQ(eval("-4@[x1, w2, uxtw #2]", kA64, r, &m).bits, u64(-7));
  EXPECT_EQ(m.last_addr, 0x4000u + 8);
  r.regs[1] = 0x4000 + 16;
  EXPECT_EQ(eval("-4@[x1, w2, sxtw #2]", kA64, r, &m).bits, u64(-7));
  EXPECT_EQ(m.last_addr, 0x4000u + 8);
}

TEST(Evaluate, WorksOnCorpusStyleSpec) {
  RegisterFile r = zero_regs();
  r.regs[0] = 7;
  EXPECT_EQ(eval("-4@x0", kA64, r).bits, 7u);
}

} // namespace
} // namespace xsdt
