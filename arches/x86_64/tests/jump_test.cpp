// The reach and bytes of the x86-64 jump: jmp rel32 counts from the end of
// its 5 bytes, so it reaches site + 5 - 2 GiB .. site + 5 + 2 GiB - 1 (Intel
// SDM, JMP E9 cd).
#include "jump_testing.h"

namespace xsdt {
namespace {

TEST(X86_64, JumpReach) {
  tests::expect_jump_reach(
      *parse_arch("x86_64"), "10-byte nopw",
      {5 - (std::int64_t{1} << 31), 5 + (std::int64_t{1} << 31) - 1, 1});
}

// x86_64-linux-gnu-as: `jmp .+0x100000` is e9 fb ff 0f 00 and
// `jmp .-0x100000` e9 fb ff ef ff; the site's other five bytes stay those of
// the 10-byte nopw (66 2e 0f 1f 84 00 00 00 00 00).
TEST(X86_64, JumpBytes) {
  const Arch arch = *parse_arch("x86_64");
  tests::expect_jump_bytes(
      arch, "10-byte nopw", 0x100000,
      {0xe9, 0xfb, 0xff, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  tests::expect_jump_bytes(
      arch, "10-byte nopw", -0x100000,
      {0xe9, 0xfb, 0xff, 0xef, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00});
}

} // namespace
} // namespace xsdt
