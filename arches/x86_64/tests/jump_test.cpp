// The reach of the x86-64 jump: jmp rel32 counts from the end of its 5
// bytes, so it reaches site + 5 - 2 GiB .. site + 5 + 2 GiB - 1 (Intel SDM,
// JMP E9 cd).
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(X86_64, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("x86_64"), "10-byte nopw",
      {5 - (std::int64_t{1} << 31), 5 + (std::int64_t{1} << 31) - 1, 1});
}

} // namespace
} // namespace xsdt
