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

// powerpc64le-linux-gnu-as: `b .+8` is 08 00 00 48, `b .-0x100000`
// 00 00 f0 4b.
TEST(Ppc64el, JumpBytes) {
  const Arch arch = *parse_arch("ppc64el");
  tests::expect_jump_bytes(arch, "nop", 8, {0x08, 0x00, 0x00, 0x48});
  tests::expect_jump_bytes(arch, "nop", -0x100000, {0x00, 0x00, 0xf0, 0x4b});
}

} // namespace
} // namespace xsdt
