// The x86 encodings shared by x86_64 and i386 (x86.h).
#include "x86/x86.h"

#include <climits>

namespace xsdt::x86 {

bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  const std::int64_t rel =
      static_cast<std::int64_t>(target - (site + kJumpSize));
  if (rel < INT32_MIN || rel > INT32_MAX)
    return false;
  const auto r = static_cast<std::uint32_t>(static_cast<std::int32_t>(rel));
  out[0] = 0xe9;
  for (int i = 0; i < 4; ++i)
    out[1 + i] = static_cast<unsigned char>(r >> (8 * i));
  return true;
}

bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target) {
  if (in[0] != 0xe9)
    return false;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i)
    r |= static_cast<std::uint32_t>(in[1 + i]) << (8 * i);
  *target = site + kJumpSize +
            static_cast<std::uint64_t>(
                static_cast<std::int64_t>(static_cast<std::int32_t>(r)));
  return true;
}

} // namespace xsdt::x86
