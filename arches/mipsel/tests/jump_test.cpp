// The reach of mipsel's jump (MIPS32/MIPS64 manual, J and BEQ): j keeps bits
// 63..28 of the delay slot's address (the site + 4) and takes bits 27..2
// from its index, so it reaches the 256 MiB region the delay slot is in,
// whatever the distance; across the region's edge, b (beq $0,$0) reaches
// -128 KiB .. +128 KiB - 4 from the delay slot.
#include "jump_testing.h"

namespace xsdt {
namespace {

const Arch kMipsel = *parse_arch("mipsel");

// A site whose delay slot starts a region: the whole region is j's, and b
// reaches 128 KiB back from the slot into the region below.
TEST(Mipsel, JumpReachFromTheStartOfARegion) {
  tests::expect_jump_reach(kMipsel, "nop", {4 - 0x20000, 0x10000000, 4},
                           0x0ffffffcu);
}

// A site in the middle of a region reaches back to its start and forward
// to its end, and no further either way.
TEST(Mipsel, JumpReachInsideARegion) {
  tests::expect_jump_reach(
      kMipsel, "nop", {0x10000000 - 0x12345678, 0x1ffffffc - 0x12345678, 4},
      0x12345678u);
}

// mipsel-linux-gnu-as, linked at 0x10000: `j _start+8` is 08004002 and
// `j 0x0ff00000` at 0x1000c is 0bfc0000 (little-endian words).
TEST(Mipsel, JumpBytes) {
  tests::expect_jump_bytes(kMipsel, "nop", 8, {0x02, 0x40, 0x00, 0x08},
                           0x10000);
  tests::expect_jump_bytes(kMipsel, "nop", 0x0ff00000 - 0x1000c,
                           {0x00, 0x00, 0xfc, 0x0b}, 0x1000c);
  // Linked at 0x10000000, `b _start-16` is 1000fffb: j cannot leave the
  // slot's region.
  tests::expect_jump_bytes(kMipsel, "nop", -16, {0xfb, 0xff, 0x00, 0x10},
                           0x10000000);
}

} // namespace
} // namespace xsdt
