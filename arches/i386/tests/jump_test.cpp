// The reach of the i386 jump: jmp rel32 counts from the end of its 5
// bytes (Intel SDM, JMP E9 cd); a site in the middle of the 4 GiB space
// reaches 2 GiB either way.
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(I386, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("i386"), "5-byte nopl",
      {5 - (std::int64_t{1} << 31), 5 + (std::int64_t{1} << 31) - 1, 1},
      0x80000000u);
}

} // namespace
} // namespace xsdt
