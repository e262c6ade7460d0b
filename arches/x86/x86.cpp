// The x86 encodings shared by x86_64 and i386 (x86.h).
#include "x86/x86.h"

#include <climits>

namespace xsdt::x86 {
namespace {

constexpr unsigned char kNop[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
constexpr unsigned char kShortNop[] = {0x90};
constexpr unsigned char kInt3[] = {0xcc};
constexpr std::size_t kJumpSize = 5;

} // namespace

// int3 over byte 0 only: a single-byte store is atomic with respect to
// instruction fetch, so a thread racing through the site sees either the
// whole NOP or the trap, and bytes 1..4 never execute (the trap handler
// resumes after them).
constinit const SiteEncoding kSiteEncodings[2] = {
    {kNop, kInt3, "5-byte nopl"},
    {kShortNop, kInt3, "1-byte nop (sys/sdt.h)"},
};

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
