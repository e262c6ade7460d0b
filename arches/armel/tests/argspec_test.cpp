// armel's register table and the shared 32-bit ARM grammar on the forms
// this arch's compilers give: sys/sdt.h's "nor" with arm-linux-gnueabi
// gcc-12 and clang-14 -march=armv5te (measured 2026-12-02: a double at
// [r2, #8], a long long in r2 alone at -O0, a global's address as the bare
// symbol g with clang), and xsdt's argument area.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

namespace xsdt {
namespace {

using tests::has;
using tests::must_fail;
using tests::must_parse;
using tests::violation;

const Arch kArmel = *parse_arch("armel");

TEST(Armel, Name) { EXPECT_EQ(parse_arch(arch_name(kArmel)), kArmel); }

// The core registers have DWARF 0..15 under both their names.
TEST(Armel, CoreRegistersHaveTheAbisDwarfNumbers) {
  tests::expect_dwarf_numbers(kArmel, {{"-4@r0", 0},
                                       {"-4@r10", 10},
                                       {"-4@fp", 11},
                                       {"-4@ip", 12},
                                       {"-4@sp", 13},
                                       {"-4@lr", 14}});
}

// Soft-float: no VFP, so d0 and s0 are no registers (a bare unknown name
// is a symbol in this grammar) and cannot be an address's base.
TEST(Armel, NoVfpRegisters) {
  for (const char *spec : {"8f@d0", "4f@s0"})
    EXPECT_EQ(must_parse(spec, kArmel).kind, LocationKind::Symbolic) << spec;
  EXPECT_EQ(must_fail("8f@[d1, #8]", kArmel).token, "d1");
}

TEST(Armel, ArgumentAreaIsPortable) {
  for (const char *spec : {"8f@[ip, #0]", "-8@[ip, #8]", "4f@[ip, #16]",
                           "-4@[r2, #8]", "8f@[r2, #8]", "-4@r10"})
    EXPECT_EQ(violation(spec, kArmel), "") << spec;
}

TEST(Armel, SysSdtFormsThatAreNotPortable) {
  // gcc -O0: a long long in the first register of its pair.
  EXPECT_TRUE(has(violation("-8@r2", kArmel), "register pair"));
  // gcc -O2: an array element at a variable index.
  EXPECT_TRUE(has(violation("-4@[lr, r3, lsl #2]", kArmel), "index register"));
  // gcc: fp in brackets is gdb's frame base.
  EXPECT_TRUE(has(violation("-4@[fp, #-8]", kArmel), "frame base"));
  // clang: a global's address as a bare symbol.
  ArgLocation g = must_parse("4@g", kArmel);
  EXPECT_EQ(g.kind, LocationKind::Symbolic);
  EXPECT_NE(violation("4@g", kArmel), "");
}

TEST(Armel, Errors) {
  ParseError e = must_fail("4@[r16]", kArmel);
  EXPECT_EQ(e.token, "r16") << e.to_string();
}

} // namespace
} // namespace xsdt
