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

// [first, end) in steps of `block` (a power of two): the block that holds
// addr first, the block that holds addr + n - 1 last.
struct CacheBlocks {
  std::uintptr_t first;
  std::uintptr_t end;
};

constexpr CacheBlocks cache_blocks(std::uintptr_t addr, std::size_t n,
                                   std::uintptr_t block) {
  return {addr & ~(block - 1), (addr + n + block - 1) & ~(block - 1)};
}

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_CACHE_BLOCKS_H
