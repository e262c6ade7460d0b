// The jump that enables an xsdt SDT site on x86_64, and on i386 through
// arches/i386/runtime/jump.h: `e9 rel32`, relative to the end of the 5-byte
// instruction, replacing the whole 5-byte NOP. Pure functions, shared by
// libxsdt (target) and xsdt-inspect (host).
#ifndef XSDT_ARCH_X86_64_JUMP_H
#define XSDT_ARCH_X86_64_JUMP_H

#include <cstddef>
#include <cstdint>

namespace xsdt::arch_x86_64 {

inline constexpr std::size_t kSiteSize = 5;
inline constexpr std::size_t kSiteAlign = 1; // int3-first patching: any
inline constexpr unsigned char kSiteNop[kSiteSize] = {0x0f, 0x1f, 0x44, 0x00,
                                                      0x00};

// Writes the jump from site to target; false when out of rel32 reach.
inline bool encode_jump(std::uint64_t site, std::uint64_t target,
                        unsigned char out[kSiteSize]) {
  const std::int64_t rel = static_cast<std::int64_t>(target - (site + 5));
  if (rel < INT32_MIN || rel > INT32_MAX)
    return false;
  const auto r = static_cast<std::uint32_t>(static_cast<std::int32_t>(rel));
  out[0] = 0xe9;
  for (int i = 0; i < 4; ++i)
    out[1 + i] = static_cast<unsigned char>(r >> (8 * i));
  return true;
}

// The target of the jump in bytes, or false if they are not `e9 rel32`.
inline bool decode_jump(std::uint64_t site, const unsigned char in[kSiteSize],
                        std::uint64_t *target) {
  if (in[0] != 0xe9)
    return false;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i)
    r |= static_cast<std::uint32_t>(in[1 + i]) << (8 * i);
  *target = site + 5 +
            static_cast<std::uint64_t>(static_cast<std::int64_t>(
                static_cast<std::int32_t>(r)));
  return true;
}

} // namespace xsdt::arch_x86_64

#endif
