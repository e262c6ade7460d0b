// armel and armhf share EM_ARM and ELFCLASS32: the registry tells their
// files apart by the float ABI (arches/arm). The attribute bytes are the
// .ARM.attributes sections of `int main(){return 0;}`-sized objects from
// Debian 12's compilers (2026-12-02): arm-linux-gnueabi-gcc-12, clang-14
// --target=arm-linux-gnueabi -march=armv5te, arm-linux-gnueabihf-gcc-12 and
// clang-14 --target=arm-linux-gnueabihf; e_flags 0x5000000 in all four
// (an object has no float-ABI flag; GNU ld sets one in linked files).
#include "xsdt/arch_registry.h"

#include <elf.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace xsdt {
namespace {

std::vector<unsigned char> bytes(const std::string &hex) {
  std::vector<unsigned char> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(
        static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::optional<Arch> arch_of(std::uint32_t e_flags,
                            const std::vector<unsigned char> &attributes) {
  return arch_for_elf(EM_ARM, false, e_flags, [&](std::string_view name) {
    return name == ".ARM.attributes"
               ? std::span<const unsigned char>(attributes)
               : std::span<const unsigned char>{};
  });
}

const Arch kArmel = *parse_arch("armel");
const Arch kArmhf = *parse_arch("armhf");
constexpr std::uint32_t kEabi5 = 0x5000000;

TEST(Armel, ObjectsByTheirAttributes) {
  EXPECT_EQ(arch_of(kEabi5, bytes("412a000000616561626900012000000005355445"
                                  "000604080109011204140115011703180119011a"
                                  "021e02")),
            kArmel)
      << "gcc-12";
  EXPECT_EQ(arch_of(kEabi5, bytes("4141000000616561626900013700000043322e30"
                                  "39000561726d3130323265000604080109010e00"
                                  "0f01100111021204140115001703180119011a02"
                                  "1e0122002601")),
            kArmel)
      << "clang-14";
  EXPECT_EQ(arch_of(kEabi5, bytes("4132000000616561626900012800000005372d41"
                                  "00060a0741080109020a04120414011501170318"
                                  "0119011a021c011e062201")),
            kArmhf)
      << "armhf gcc-12";
  EXPECT_EQ(arch_of(kEabi5, bytes("413d000000616561626900013300000043322e30"
                                  "3900060a0741080109020a040e000f0110011102"
                                  "1204140115001703180119011a021c011e062201"
                                  "2601")),
            kArmhf)
      << "armhf clang-14";
}

TEST(Armel, LinkedFilesByTheirFlags) {
  const std::vector<unsigned char> none;
  EXPECT_EQ(arch_of(kEabi5 | 0x200, none), kArmel); // EF_ARM_ABI_FLOAT_SOFT
  EXPECT_EQ(arch_of(kEabi5 | 0x400, none), kArmhf); // EF_ARM_ABI_FLOAT_HARD
}

// A file that says neither, or whose attributes are not the form, is
// armhf's, and nothing reads past the bytes.
TEST(Armel, UnclearFilesAreArmhfs) {
  EXPECT_EQ(arch_of(kEabi5, {}), kArmhf);
  for (const char *hex :
       {"41", "41ff000000", "412a00000061656162", "410a000000616561626900",
        "411000000061656162690001ff000000",
        "4111000000616561626900010a0000001c"})
    EXPECT_EQ(arch_of(kEabi5, bytes(hex)), kArmhf) << hex;
}

} // namespace
} // namespace xsdt
