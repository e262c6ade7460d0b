// The reach of the armhf jumps (ARM ARM A8.8.18, B): in Thumb state b.w
// (T4, imm25 in halfwords) counts from the branch + 4 and reaches
// -16 MiB .. +16 MiB - 2 from there; in ARM state b (A1, imm24 in words)
// counts from the branch + 8 and reaches -32 MiB .. +32 MiB - 4.
#include "jump_testing.h"

namespace xsdt {
namespace {

const Arch kArmhf = *parse_arch("armhf");
// A site in the middle of the 32-bit space.
constexpr std::uint64_t kSite = 0x80000000u;

TEST(Armhf, ThumbJumpReach) {
  tests::expect_jump_reach(
      kArmhf, "4-byte nop.w",
      {4 - (std::int64_t{1} << 24), 4 + (std::int64_t{1} << 24) - 2, 2}, kSite);
}

TEST(Armhf, ArmJumpReach) {
  tests::expect_jump_reach(
      kArmhf, "4-byte ARM nop",
      {8 - (std::int64_t{1} << 25), 8 + (std::int64_t{1} << 25) - 4, 4}, kSite);
}

// arm-linux-gnueabihf-as: Thumb `b.w .+8` is f000 b802 and `b.w .-0x100000`
// f6ff bffe (two halfwords, each little-endian); ARM `b .+8` is ea000000 and
// `b .-0x100000` eafbfffe.
TEST(Armhf, JumpBytes) {
  tests::expect_jump_bytes(kArmhf, "4-byte nop.w", 8, {0x00, 0xf0, 0x02, 0xb8},
                           kSite);
  tests::expect_jump_bytes(kArmhf, "4-byte nop.w", -0x100000,
                           {0xff, 0xf6, 0xfe, 0xbf}, kSite);
  tests::expect_jump_bytes(kArmhf, "4-byte ARM nop", 8,
                           {0x00, 0x00, 0x00, 0xea}, kSite);
  tests::expect_jump_bytes(kArmhf, "4-byte ARM nop", -0x100000,
                           {0xfe, 0xff, 0xfb, 0xea}, kSite);
}

} // namespace
} // namespace xsdt
