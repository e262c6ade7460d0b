// The evaluator on riscv64 operands: ABI and numeric names, the zero
// register, off(reg) memory.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::eval;
using tests::FakeMemory;
using tests::must_compile;
using tests::u64;
using tests::zero_regs;

const Arch kRv = *parse_arch("riscv64");

TEST(Compile, RegisterFields) {
  EXPECT_EQ(must_compile("8@a0", kRv).base_reg, 10);
  EXPECT_EQ(must_compile("8@t6", kRv).base_reg, 31);
}

TEST(Compile, MemoryFields) {
  CompiledArg c = must_compile("4@-88(s0)", kRv);
  EXPECT_EQ(c.base_reg, 8);
  EXPECT_EQ(c.displacement, -88);
}

TEST(Compile, Immediates) {
  EXPECT_EQ(must_compile("-8@-3", kRv).immediate, -3);
}

TEST(Compile, ZeroRegistersBecomeImmediateZero) {
  CompiledArg c = must_compile("8@zero", kRv);
  EXPECT_EQ(c.kind, CompiledKind::Immediate);
}

TEST(Evaluate, Immediates) {
  RegisterFile r = zero_regs();
  EXPECT_EQ(eval("1@300", kRv, r).bits, 44u); // truncated to one byte
  EXPECT_EQ(eval("-1@127", kRv, r).bits, 127u);
  EXPECT_EQ(eval("-1@128", kRv, r).bits, u64(-128));
}

TEST(Evaluate, RiscvRegisters) {
  RegisterFile rv = zero_regs();
  rv.regs[10] = 0x1ff;
  rv.regs[0] = 0xdead; // x0 must read as zero whatever the slot holds
  EXPECT_EQ(eval("1@a0", kRv, rv).bits, 0xffu);
  EXPECT_EQ(eval("-1@a0", kRv, rv).bits, u64(-1));
  EXPECT_EQ(eval("2@a0", kRv, rv).bits, 0x1ffu);
  EXPECT_EQ(eval("8@zero", kRv, rv).bits, 0u);
}

TEST(Evaluate, RiscvMemory) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(128, 0);
  std::int32_t v = -123456;
  m.put(0x4000 + 96, &v, 4);
  RegisterFile rv = zero_regs();
  rv.regs[8] = 0x4000 + 96 + 88; // s0
  EXPECT_EQ(eval("-4@-88(s0)", kRv, rv, &m).bits, u64(-123456));
  EXPECT_EQ(eval("-4@-88(fp)", kRv, rv, &m).bits, u64(-123456));
}

TEST(Evaluate, WorksOnCorpusStyleSpec) {
  RegisterFile r = zero_regs();
  r.regs[10] = 9;
  EXPECT_EQ(eval("-4@a0", kRv, r).bits, 9u);
}

} // namespace
} // namespace xsdt
