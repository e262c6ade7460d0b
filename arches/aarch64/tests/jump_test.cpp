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

} // namespace
} // namespace xsdt
