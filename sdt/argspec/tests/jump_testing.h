// The reach and the bytes of an arch's SDT(9) jump, for each arch's tests in
// arches/<arch>/tests/: the farthest targets back and forward that its ISA
// manual gives for the branch (written there, not read from the
// descriptor) are encoded and decode back, and one step beyond either end,
// or off the branch's alignment, is refused. A jump that reached less
// would leave sites in trap mode for no reason; one that reached more would
// branch to the wrong place.
#ifndef XSDT_ARGSPEC_TESTS_JUMP_TESTING_H
#define XSDT_ARGSPEC_TESTS_JUMP_TESTING_H

#include "xsdt/arch_port.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace xsdt::tests {

// Offsets of the target from the site's own address (the ISA's PC bias,
// such as ARM's +8, already added by whoever writes the table).
struct JumpReach {
  std::int64_t farthest_back;    // the lowest target - site
  std::int64_t farthest_forward; // the highest target - site
  std::int64_t alignment;        // target - site is a multiple of this
};

inline const SiteEncoding *site_encoding(const ArchDescriptor &d,
                                         std::string_view what) {
  for (const SiteEncoding &candidate : d.site_encodings)
    if (candidate.what == what)
      return &candidate;
  return nullptr;
}

inline void expect_jump_reach(Arch arch, std::string_view encoding,
                              JumpReach reach,
                              std::uint64_t site = std::uint64_t{1} << 40) {
  const ArchDescriptor &d = arch.descriptor();
  const SiteEncoding *e = site_encoding(d, encoding);
  ASSERT_NE(e, nullptr) << "no site encoding \"" << encoding << "\"";
  auto at = [&](std::int64_t offset) {
    return site + static_cast<std::uint64_t>(offset);
  };
  unsigned char jump[16];
  for (std::int64_t offset : {reach.farthest_back, reach.farthest_forward}) {
    std::memset(jump, 0, sizeof jump);
    ASSERT_TRUE(d.encode_jump_of(*e, site, at(offset), jump))
        << encoding << ": a jump by " << offset << " is refused";
    std::uint64_t target = 0;
    EXPECT_TRUE(d.decode_jump_of(*e, site, jump, &target))
        << encoding << ": the jump by " << offset << " does not decode";
    EXPECT_EQ(target, at(offset))
        << encoding << ": the jump by " << offset << " decodes to "
        << static_cast<std::int64_t>(target - site);
  }
  for (std::int64_t offset : {reach.farthest_back - reach.alignment,
                              reach.farthest_forward + reach.alignment})
    EXPECT_FALSE(d.encode_jump_of(*e, site, at(offset), jump))
        << encoding << ": a jump by " << offset << " is out of reach";
  for (std::int64_t misalign = 1; misalign < reach.alignment; ++misalign)
    EXPECT_FALSE(
        d.encode_jump_of(*e, site, at(reach.alignment + misalign), jump))
        << encoding << ": a jump by " << reach.alignment + misalign
        << " is off the " << reach.alignment << "-byte alignment";
}

// The bytes of one jump as the arch's assembler writes them (objdump of
// `b .+8` and the like, written into the test, not read from the
// descriptor), followed by the rest of the site where the jump is narrower:
// the descriptor encodes a jump by `offset` from the site into exactly these
// bytes, writing each of them and none past them (the buffer starts out
// holding a canary), and decodes them back to that target.
inline void expect_jump_bytes(Arch arch, std::string_view encoding,
                              std::int64_t offset,
                              const std::vector<unsigned char> &bytes,
                              std::uint64_t site = std::uint64_t{1} << 40) {
  const ArchDescriptor &d = arch.descriptor();
  const SiteEncoding *e = site_encoding(d, encoding);
  ASSERT_NE(e, nullptr) << "no site encoding \"" << encoding << "\"";
  const std::uint64_t target = site + static_cast<std::uint64_t>(offset);
  constexpr unsigned char kCanary = 0xa5;
  unsigned char jump[16];
  std::memset(jump, kCanary, sizeof jump);
  ASSERT_LE(bytes.size(), sizeof jump);
  ASSERT_TRUE(d.encode_jump_of(*e, site, target, jump))
      << encoding << ": a jump by " << offset << " is refused";
  EXPECT_EQ(std::vector<unsigned char>(jump, jump + bytes.size()), bytes)
      << encoding << ": the jump by " << offset;
  EXPECT_EQ(std::vector<unsigned char>(jump + bytes.size(), jump + sizeof jump),
            std::vector<unsigned char>(sizeof jump - bytes.size(), kCanary))
      << encoding << ": the jump by " << offset << " writes past the site";
  std::uint64_t decoded = 0;
  ASSERT_TRUE(d.decode_jump_of(*e, site, bytes.data(), &decoded))
      << encoding << ": the assembler's jump by " << offset
      << " does not decode";
  EXPECT_EQ(decoded, target)
      << encoding << ": the assembler's jump by " << offset;
}

} // namespace xsdt::tests

#endif
