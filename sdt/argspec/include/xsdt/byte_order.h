// Unsigned integers read out of bytes in an arch's byte order: the stapsdt
// notes and the SDT(9) records are written in the target's order, which is
// big-endian on s390x. Shared by libxsdt (its own memory) and xsdt-inspect
// (a file of any arch); header-only and dependency-free.
#ifndef XSDT_BYTE_ORDER_H
#define XSDT_BYTE_ORDER_H

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace xsdt {

enum class ByteOrder { kLittle, kBig };

inline constexpr ByteOrder kNativeByteOrder =
    std::endian::native == std::endian::big ? ByteOrder::kBig
                                            : ByteOrder::kLittle;

// The `size`-byte (at most 8) unsigned integer at bytes[at]; the caller has
// checked the bounds.
inline std::uint64_t load_uint(std::span<const unsigned char> bytes,
                               std::size_t at, unsigned size, ByteOrder order) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i) {
    const unsigned significance = order == ByteOrder::kBig ? size - 1 - i : i;
    value |= std::uint64_t{bytes[at + i]} << (8 * significance);
  }
  return value;
}

} // namespace xsdt

#endif // XSDT_BYTE_ORDER_H
