// The reach of the s390x jump: brcl (RIL-c, a signed 32-bit count of
// halfwords) reaches -4 GiB .. +4 GiB - 2 from the branch itself
// (z/Architecture Principles of Operation, BRANCH RELATIVE ON CONDITION
// LONG).
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(S390x, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("s390x"), "6-byte brcl 0,.+6",
      {-(std::int64_t{1} << 32), (std::int64_t{1} << 32) - 2, 2});
}

} // namespace
} // namespace xsdt
