// The evaluator on i386 operands: the psABI's DWARF numbers, gdb's
// register widening, and 32-bit addresses.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <string>

namespace xsdt {
namespace {

using tests::compile_failure;
using tests::eval;
using tests::FakeMemory;
using tests::must_compile;
using tests::u64;
using tests::zero_regs;

const Arch kI386 = *parse_arch("i386");

TEST(Compile, RegisterFields) {
  EXPECT_EQ(must_compile("4@%ecx", kI386).base_reg, 1);
  EXPECT_EQ(must_compile("4@%edi", kI386).base_reg, 7);
}

TEST(Compile, MemoryFields) {
  CompiledArg c = must_compile("-8@-64(%ebp)", kI386);
  EXPECT_EQ(c.base_reg, 5);
  EXPECT_EQ(c.displacement, -64);
  EXPECT_TRUE(c.address32);
}

TEST(Compile, Rejections) {
  EXPECT_NE(compile_failure("-4@g@GOTOFF(%ecx)", kI386)
                .find("needs symbol resolution"),
            std::string::npos);
}

TEST(Evaluate, I386RegisterWidening) {
  RegisterFile r = zero_regs();
  r.regs[0] = 0x8000fffe; // eax
  r.regs[3] = 0x1234abcd; // ebx
  // gdb reads %ax from %eax: the low bits of the full register.
  EXPECT_EQ(eval("-2@%ax", kI386, r).bits, u64(-2));
  EXPECT_EQ(eval("2@%ax", kI386, r).bits, 0xfffeu);
  EXPECT_EQ(eval("-4@%ax", kI386, r).bits, 0xffffffff8000fffeu);
  EXPECT_EQ(eval("-4@%eax", kI386, r).bits, 0xffffffff8000fffeu);
  EXPECT_EQ(eval("4@%eax", kI386, r).bits, 0x8000fffeu);
  EXPECT_EQ(eval("1@%bl", kI386, r).bits, 0xcdu);
  EXPECT_EQ(eval("1@%bh", kI386, r).bits, 0xabu);
  EXPECT_EQ(eval("-1@%bh", kI386, r).bits, u64(-85));
}

TEST(Evaluate, I386AddressesWrapAt32Bits) {
  FakeMemory m;
  m.base = 0x10;
  m.bytes.assign(16, 0);
  std::uint32_t w = 0x80000001;
  m.put(0x10, &w, 4);
  RegisterFile r = zero_regs();
  r.regs[2] = 0xfffffff0; // edx
  EXPECT_EQ(eval("-4@32(%edx)", kI386, r, &m).bits, 0xffffffff80000001u);
  EXPECT_EQ(m.last_addr, 0x10u);
  // A negative displacement below 0 wraps to the top, which is unreadable.
  r.regs[2] = 0x4;
  CompiledArg c = must_compile("4@-8(%edx)", kI386);
  EvalValue out;
  EXPECT_FALSE(evaluate(c, r, m.reader(), &out));
  EXPECT_EQ(m.last_addr, 0xfffffffcu);
}

TEST(Evaluate, I386ArgumentAreaDouble) {
  FakeMemory m;
  m.base = 0xffd0;
  m.bytes.assign(96, 0);
  double d = -0.125;
  m.put(0xffd0 + 24, &d, 8);
  std::int64_t big = -4886718345;
  m.put(0xffd0 + 32, &big, 8);
  RegisterFile r = zero_regs();
  r.regs[2] = 0xffd0; // edx
  EXPECT_EQ(eval("8f@24(%edx)", kI386, r, &m).as_double, -0.125);
  EXPECT_EQ(eval("-8@32(%edx)", kI386, r, &m).bits, u64(big));
}

} // namespace
} // namespace xsdt
