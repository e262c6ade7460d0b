// The cache blocks a byte range touches, for an arch whose instruction
// cache is kept coherent block by block (each data block stored, each
// instruction block invalidated, as the Power ISA asks). The arithmetic is
// apart from the arch's machdep.cpp so that the host's unit tests check it:
// under qemu-user no cache is incoherent, so a block left out shows nowhere.
#ifndef XSDT_RUNTIME_CACHE_BLOCKS_H
#define XSDT_RUNTIME_CACHE_BLOCKS_H

#include <cstddef>
#include <cstdint>

namespace xsdt::rt {

// [first, end) in steps of kBlock: the block that holds addr first, the
// block that holds addr + n - 1 last.
struct CacheBlocks {
  std::uintptr_t first;
  std::uintptr_t end;
};

// kBlock is a power of two, as every cache block is: another number would
// misalign the range (the masks below) and step over the block that holds
// its last bytes, which no run under qemu-user would show, so it does not
// compile.
template <std::uintptr_t kBlock>
constexpr CacheBlocks cache_blocks(std::uintptr_t addr, std::size_t n) {
  static_assert(kBlock != 0 && (kBlock & (kBlock - 1)) == 0,
                "a cache block is a power of two bytes");
  return {addr & ~(kBlock - 1), (addr + n + kBlock - 1) & ~(kBlock - 1)};
}

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_CACHE_BLOCKS_H
