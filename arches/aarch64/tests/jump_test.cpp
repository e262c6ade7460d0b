// The reach of the aarch64 jump: B (imm26, in instructions) reaches
// -128 MiB .. +128 MiB - 4 from the branch itself (Arm ARM C6.2.26).
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(AArch64, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("aarch64"), "nop",
      {-(std::int64_t{1} << 27), (std::int64_t{1} << 27) - 4, 4});
}

// aarch64-linux-gnu-as: `b .+8` is 14000002, `b .-0x100000` 17fc0000.
TEST(AArch64, JumpBytes) {
  const Arch arch = *parse_arch("aarch64");
  tests::expect_jump_bytes(arch, "nop", 8, {0x02, 0x00, 0x00, 0x14});
  tests::expect_jump_bytes(arch, "nop", -0x100000, {0x00, 0x00, 0xfc, 0x17});
}

} // namespace
} // namespace xsdt
