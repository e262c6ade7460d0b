// The MIPS jump and register names shared by mips64el and mipsel (mips.h).
#include "mips/mips.h"

#include <string>

namespace xsdt::mips {
namespace {

constexpr std::uint32_t kJumpOpcode = 0x08000000u; // j: opcode 2, bits 31..26
constexpr std::uint32_t kOpcodeMask = 0xfc000000u;
constexpr std::uint64_t kRegion = 0x0fffffffu; // what j's index can reach
// b: beq $0, $0 (opcode 4, rs = rt = 0), a signed word offset in bits 15..0.
constexpr std::uint32_t kBranch = 0x10000000u;
constexpr std::uint32_t kBranchMask = 0xffff0000u;
constexpr std::int64_t kBranchReach = std::int64_t{1} << 17;

void store_le32(std::uint32_t word, unsigned char *out) {
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<unsigned char>(word >> (8 * i));
}

std::uint32_t load_le32(const unsigned char *in) {
  std::uint32_t word = 0;
  for (int i = 0; i < 4; ++i)
    word |= std::uint32_t{in[i]} << (8 * i);
  return word;
}

} // namespace

bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out) {
  const std::uint64_t slot = site + 4;
  if (target % 4 != 0)
    return false;
  if ((target & ~kRegion) == (slot & ~kRegion)) {
    store_le32(
        kJumpOpcode | static_cast<std::uint32_t>((target & kRegion) >> 2), out);
    return true;
  }
  const auto offset = static_cast<std::int64_t>(target - slot);
  if (offset < -kBranchReach || offset >= kBranchReach)
    return false;
  store_le32(kBranch | (static_cast<std::uint32_t>(offset >> 2) & 0xffffu),
             out);
  return true;
}

bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target) {
  const std::uint32_t word = load_le32(in);
  const std::uint64_t slot = site + 4;
  if ((word & kOpcodeMask) == kJumpOpcode) {
    *target = (slot & ~kRegion) | (std::uint64_t{word & ~kOpcodeMask} << 2);
    return true;
  }
  if ((word & kBranchMask) == kBranch) {
    const auto words = static_cast<std::int16_t>(word & 0xffffu);
    *target = slot + static_cast<std::uint64_t>(std::int64_t{words} * 4);
    return true;
  }
  return false;
}

void add_register_name(std::vector<RegisterInfo> &t, const char *name,
                       int number, int bits) {
  detail::add_register(t, name, std::to_string(number), number, 0, bits,
                       number == 0 ? RegisterClass::Zero
                                   : RegisterClass::General);
}

void add_common_registers(std::vector<RegisterInfo> &t, int bits, int fp_bits) {
  for (int n = 0; n < 32; ++n)
    add_register_name(t, std::to_string(n).c_str(), n, bits);
  struct Name {
    const char *name;
    int number;
  };
  for (Name a : {Name{"zero", 0}, Name{"at", 1}, Name{"v0", 2}, Name{"v1", 3},
                 Name{"a0", 4}, Name{"a1", 5}, Name{"a2", 6}, Name{"a3", 7},
                 Name{"t8", 24}, Name{"t9", 25}, Name{"k0", 26}, Name{"k1", 27},
                 Name{"gp", 28}, Name{"sp", 29}, Name{"fp", 30}, Name{"s8", 30},
                 Name{"ra", 31}})
    add_register_name(t, a.name, a.number, bits);
  for (int n = 0; n < 8; ++n)
    add_register_name(t, ("s" + std::to_string(n)).c_str(), 16 + n, bits);
  for (int n = 0; n < 32; ++n)
    detail::add_register(t, "f" + std::to_string(n), "f" + std::to_string(n),
                         32 + n, 0, fp_bits, RegisterClass::Vector);
}

} // namespace xsdt::mips
