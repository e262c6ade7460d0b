// The evaluator on s390x operands: a big-endian arch, so a memory operand's
// bytes are read most significant first; D(X,B) adds the index.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::eval;
using tests::FakeMemory;
using tests::u64;
using tests::zero_regs;

const Arch kS390x = *parse_arch("s390x");

TEST(S390xEvaluate, RegistersTruncateToTheSpecsSize) {
  RegisterFile r = zero_regs();
  r.regs[2] = 0xffffffff00000000u | 0xfffffed4u; // (int)-300 in %r2
  EXPECT_EQ(eval("-4@%r2", kS390x, r).bits, u64(-300));
  EXPECT_EQ(eval("-2@%r2", kS390x, r).bits, u64(-300));
  EXPECT_EQ(eval("1@%r2", kS390x, r).bits, 0xd4u);
}

TEST(S390xEvaluate, ImmediatesTruncate) {
  RegisterFile r = zero_regs();
  // (unsigned char)200 and (unsigned short)0xffff, as both compilers print
  // them.
  EXPECT_EQ(eval("1@-56", kS390x, r).bits, 200u);
  EXPECT_EQ(eval("2@-1", kS390x, r).bits, 0xffffu);
}

TEST(S390xEvaluate, MemoryIsBigEndian) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(64, 0);
  // -123456 as a big-endian int at 0x4000 + 8, and 0x0102 as a short at
  // 0x4000 + 16: written byte by byte, independent of the host's order.
  const unsigned char word[] = {0xff, 0xfe, 0x1d, 0xc0};
  const unsigned char half[] = {0x01, 0x02};
  m.put(0x4000 + 8, word, 4);
  m.put(0x4000 + 16, half, 2);
  RegisterFile r = zero_regs();
  r.regs[15] = 0x4000;
  EXPECT_EQ(eval("-4@8(%r15)", kS390x, r, &m).bits, u64(-123456));
  EXPECT_EQ(eval("2@16(%r15)", kS390x, r, &m).bits, 0x0102u);
}

TEST(S390xEvaluate, IndexPlusBase) {
  FakeMemory m;
  m.base = 0x4000;
  m.bytes.assign(64, 0);
  const unsigned char half[] = {0xff, 0x38}; // -200
  m.put(0x4000 + 20, half, 2);
  RegisterFile r = zero_regs();
  r.regs[3] = 4;      // index
  r.regs[2] = 0x4000; // base
  EXPECT_EQ(eval("-2@16(%r3,%r2)", kS390x, r, &m).bits, u64(-200));
}

} // namespace
} // namespace xsdt
