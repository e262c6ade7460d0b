// The jump that enables an xsdt SDT site on AArch64: `b imm26` (+-128 MiB),
// one aligned 32-bit instruction in place of the `nop`. Pure functions,
// shared by libxsdt (target) and xsdt-inspect (host).
#ifndef XSDT_ARCH_AARCH64_JUMP_H
#define XSDT_ARCH_AARCH64_JUMP_H

#include <cstddef>
#include <cstdint>

namespace xsdt::arch_aarch64 {

inline constexpr std::size_t kSiteSize = 4;
inline constexpr std::size_t kSiteAlign = 4;
inline constexpr unsigned char kSiteNop[kSiteSize] = {0x1f, 0x20, 0x03, 0xd5};

inline bool encode_jump(std::uint64_t site, std::uint64_t target,
                        unsigned char out[kSiteSize]) {
  const std::int64_t off = static_cast<std::int64_t>(target - site);
  if (off % 4 != 0 || off < -(std::int64_t{1} << 27) ||
      off >= (std::int64_t{1} << 27))
    return false;
  const std::uint32_t insn =
      0x14000000u | (static_cast<std::uint32_t>(off >> 2) & 0x03ffffffu);
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<unsigned char>(insn >> (8 * i));
  return true;
}

inline bool decode_jump(std::uint64_t site, const unsigned char in[kSiteSize],
                        std::uint64_t *target) {
  std::uint32_t insn = 0;
  for (int i = 0; i < 4; ++i)
    insn |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  if ((insn & 0xfc000000u) != 0x14000000u)
    return false;
  // Sign-extend imm26, then scale by 4.
  std::int64_t imm = static_cast<std::int64_t>(insn & 0x03ffffffu);
  if (imm & 0x02000000)
    imm -= std::int64_t{1} << 26;
  *target = site + static_cast<std::uint64_t>(imm * 4);
  return true;
}

} // namespace xsdt::arch_aarch64

#endif
