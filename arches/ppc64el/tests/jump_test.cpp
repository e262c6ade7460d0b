// The reach of the ppc64el jump: b (LI, 24 bits in words) reaches
// -32 MiB .. +32 MiB - 4 from the branch itself (Power ISA 2.4, I-form).
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(Ppc64el, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("ppc64el"), "nop",
      {-(std::int64_t{1} << 25), (std::int64_t{1} << 25) - 4, 4});
}

} // namespace
} // namespace xsdt
