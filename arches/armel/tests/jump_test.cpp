// The reach of armel's jump (ARM ARM A8.8.18, B, encoding A1, imm24 in
// words): it counts from the branch + 8 and reaches -32 MiB .. +32 MiB - 4
// from there.
#include "jump_testing.h"

namespace xsdt {
namespace {

const Arch kArmel = *parse_arch("armel");
// A site in the middle of the 32-bit space.
constexpr std::uint64_t kSite = 0x80000000u;

TEST(Armel, JumpReach) {
  tests::expect_jump_reach(
      kArmel, "4-byte mov r0, r0",
      {8 - (std::int64_t{1} << 25), 8 + (std::int64_t{1} << 25) - 4, 4}, kSite);
}

// arm-linux-gnueabi-as -march=armv5te: `b .+8` is ea000000 and
// `b .-0x100000` eafbfffe.
TEST(Armel, JumpBytes) {
  tests::expect_jump_bytes(kArmel, "4-byte mov r0, r0", 8,
                           {0x00, 0x00, 0x00, 0xea}, kSite);
  tests::expect_jump_bytes(kArmel, "4-byte mov r0, r0", -0x100000,
                           {0xfe, 0xff, 0xfb, 0xea}, kSite);
}

} // namespace
} // namespace xsdt
