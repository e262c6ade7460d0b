// mipsel's register table and the shared MIPS grammar (arches/mips) on the
// forms Debian 12's compilers give for o32: sys/sdt.h's "nor" with
// mipsel-linux-gnu-gcc-12 -O0 (measured 2026-12-02: a long long as -8@$2
// and a double as 8f@$6, one register of a pair each) and xsdt's argument
// area (8f@16($4)).
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::has;
using tests::must_parse;
using tests::violation;

const Arch kMipsel = *parse_arch("mipsel");

TEST(Mipsel, Name) { EXPECT_EQ(parse_arch(arch_name(kMipsel)), kMipsel); }

// o32 names $8..$15 t0..t7 (n64 calls $8..$11 a4..a7, which o32 has not).
TEST(Mipsel, RegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kMipsel, {{"-4@$4", 4},
                                        {"-4@$a3", 7},
                                        {"-4@$t0", 8},
                                        {"-4@$t7", 15},
                                        {"-4@$s7", 23},
                                        {"-4@$t8", 24},
                                        {"-4@$sp", 29},
                                        {"-4@$ra", 31},
                                        {"8f@$f12", 44}});
  EXPECT_EQ(tests::must_fail("-4@$a4", kMipsel).token, "$a4")
      << "o32 has no $a4";
}

// A 64-bit value in one 32-bit register is half of a pair.
TEST(Mipsel, WideValuesInRegistersAreNotPortable) {
  EXPECT_TRUE(has(violation("-8@$2", kMipsel), "register pair"));
  EXPECT_TRUE(has(violation("8f@$6", kMipsel), "register pair"));
  EXPECT_EQ(violation("8f@16($4)", kMipsel), "");
  EXPECT_EQ(violation("-8@0($sp)", kMipsel), "");
  EXPECT_EQ(violation("-4@$2", kMipsel), "");
}

} // namespace
} // namespace xsdt
