// cache_blocks.h: the blocks a flush visits cover every byte written, and
// no block beyond the range's first and last.
#include "cache_blocks.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using xsdt::rt::cache_blocks;

// Every start within two blocks of an aligned base and every length up to
// three blocks: the visited blocks are aligned, hold every byte of the
// range, and start at its first byte's block and end after its last's.
template <std::uintptr_t block> void expect_exact_cover() {
  const std::uintptr_t base = 0x10000;
  for (std::uintptr_t offset = 0; offset < 2 * block; ++offset) {
    for (std::size_t n = 1; n <= 3 * block; ++n) {
      const std::uintptr_t addr = base + offset;
      const auto blocks = cache_blocks<block>(addr, n);
      SCOPED_TRACE(testing::Message() << "block " << block << ", offset "
                                      << offset << ", " << n << " bytes");
      ASSERT_EQ(blocks.first % block, 0u);
      ASSERT_EQ(blocks.end % block, 0u);
      ASSERT_EQ(blocks.first, addr - addr % block);
      const std::uintptr_t last = addr + n - 1;
      ASSERT_EQ(blocks.end, last - last % block + block);
    }
  }
}

TEST(CacheBlocks, CoverEveryByteOfTheRangeAndNoMore) {
  expect_exact_cover<32>();
  expect_exact_cover<64>();
  expect_exact_cover<128>();
}

// Stepping from first by the block size reaches the last byte's block: the
// loop a machdep.cpp writes, with a range that starts late in one block and
// ends early in another.
TEST(CacheBlocks, TheFlushLoopVisitsTheLastBytesBlock) {
  constexpr std::uintptr_t block = 32;
  const std::uintptr_t addr = 0x1004;
  const std::size_t n = 0x1043 - addr; // last byte 0x1042
  const auto blocks = cache_blocks<block>(addr, n);
  std::uintptr_t visited_last = 0;
  for (std::uintptr_t p = blocks.first; p < blocks.end; p += block)
    visited_last = p;
  EXPECT_EQ(blocks.first, 0x1000u);
  EXPECT_EQ(visited_last, 0x1040u);
}

static_assert(cache_blocks<32>(0x1000, 32).first == 0x1000 &&
                  cache_blocks<32>(0x1000, 32).end == 0x1020,
              "an aligned block is one block");

} // namespace
