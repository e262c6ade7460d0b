// The jump that enables an xsdt SDT site on RISC-V 64: `jal x0, off`
// (+-1 MiB), one aligned 32-bit instruction in place of the 4-byte `nop`.
// Pure functions, shared by libxsdt (target) and xsdt-inspect (host).
#ifndef XSDT_ARCH_RISCV64_JUMP_H
#define XSDT_ARCH_RISCV64_JUMP_H

#include <cstddef>
#include <cstdint>

namespace xsdt::arch_riscv64 {

inline constexpr std::size_t kSiteSize = 4;
inline constexpr std::size_t kSiteAlign = 4;
inline constexpr unsigned char kSiteNop[kSiteSize] = {0x13, 0x00, 0x00, 0x00};

// J-type immediate: imm[20|10:1|11|19:12] in bits 31|30:21|20|19:12.
inline bool encode_jump(std::uint64_t site, std::uint64_t target,
                        unsigned char out[kSiteSize]) {
  const std::int64_t off = static_cast<std::int64_t>(target - site);
  if (off % 2 != 0 || off < -(std::int64_t{1} << 20) ||
      off >= (std::int64_t{1} << 20))
    return false;
  const auto imm = static_cast<std::uint32_t>(off);
  const std::uint32_t insn = (((imm >> 20) & 1u) << 31) |
                             (((imm >> 1) & 0x3ffu) << 21) |
                             (((imm >> 11) & 1u) << 20) |
                             (((imm >> 12) & 0xffu) << 12) | 0x6fu; // rd = x0
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<unsigned char>(insn >> (8 * i));
  return true;
}

inline bool decode_jump(std::uint64_t site, const unsigned char in[kSiteSize],
                        std::uint64_t *target) {
  std::uint32_t insn = 0;
  for (int i = 0; i < 4; ++i)
    insn |= static_cast<std::uint32_t>(in[i]) << (8 * i);
  if ((insn & 0xfffu) != 0x06fu) // jal with rd = x0
    return false;
  std::uint32_t imm = (((insn >> 31) & 1u) << 20) |
                      (((insn >> 21) & 0x3ffu) << 1) |
                      (((insn >> 20) & 1u) << 11) | (((insn >> 12) & 0xffu) << 12);
  std::int64_t off = static_cast<std::int64_t>(imm);
  if (off & (std::int64_t{1} << 20))
    off -= std::int64_t{1} << 21;
  *target = site + static_cast<std::uint64_t>(off);
  return true;
}

} // namespace xsdt::arch_riscv64

#endif
