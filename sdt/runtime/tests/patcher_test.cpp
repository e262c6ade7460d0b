// The code patcher on its own (patch.h): a site that straddles two pages.
// Only arches whose site is wider than its alignment can have one, and no
// compiler puts one there on demand, so the site is laid out by hand in an
// anonymous mapping: half of it at the end of the first page, half at the
// start of the second. Every byte of the site changes, so both pages must be
// made writable and given their protection back.
#include "patch.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// "0f 1f 44 00 00" (arch.json's expect, see CMakeLists.txt) as bytes.
std::vector<unsigned char> bytes_of(const char *hex) {
  std::vector<unsigned char> out;
  unsigned value = 0;
  int used = 0;
  while (std::sscanf(hex, " %2x%n", &value, &used) == 1) {
    out.push_back(static_cast<unsigned char>(value));
    hex += used;
  }
  return out;
}

// The protection of the mapping holding addr, as /proc/self/maps says it
// ("r-xp"); "" when no mapping holds it.
std::string protection_of(std::uintptr_t addr) {
  std::FILE *maps = std::fopen("/proc/self/maps", "r");
  if (!maps)
    return "";
  char line[512];
  std::string found;
  while (found.empty() && std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0;
    char perms[8] = "";
    if (std::sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3 &&
        start <= addr && addr < end)
      found = perms;
  }
  std::fclose(maps);
  return found;
}

class SiteAcrossPages : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_GE(site_.size(), 2u) << "a one-byte site cannot straddle a page";
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    void *mem = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mem, MAP_FAILED);
    pages_ = static_cast<unsigned char *>(mem);
    at_ = pages_ + page_ - site_.size() / 2;
    std::memcpy(at_, site_.data(), site_.size());
    ASSERT_EQ(mprotect(pages_, 2 * page_, PROT_READ | PROT_EXEC), 0);
  }
  void TearDown() override {
    if (pages_)
      munmap(pages_, 2 * page_);
  }

  // The write from the site's NOP to bytes that differ in every position.
  xsdt::rt::CodeWrite write() const {
    xsdt::rt::CodeWrite w;
    w.addr = reinterpret_cast<std::uintptr_t>(at_);
    w.size = static_cast<std::uint8_t>(site_.size());
    for (std::size_t i = 0; i < site_.size(); ++i) {
      w.from[i] = site_[i];
      w.to[i] = static_cast<unsigned char>(~site_[i]);
    }
    return w;
  }

  const std::vector<unsigned char> site_ = bytes_of(XSDT_TEST_JUMP_SITE_NOP);
  std::size_t page_ = 0;
  unsigned char *pages_ = nullptr;
  unsigned char *at_ = nullptr;
};

TEST_F(SiteAcrossPages, IsWrittenOnBothPagesAndBothGetTheirProtectionBack) {
  const xsdt::rt::CodeWrite w = write();
  xsdt::rt::PatchFailure failure;
  ASSERT_TRUE(xsdt::rt::apply_code_writes({w}, &failure)) << failure.reason;
  EXPECT_EQ(std::memcmp(at_, w.to, w.size), 0);
  EXPECT_EQ(protection_of(reinterpret_cast<std::uintptr_t>(pages_)), "r-xp");
  EXPECT_EQ(protection_of(reinterpret_cast<std::uintptr_t>(pages_ + page_)),
            "r-xp");
}

TEST_F(SiteAcrossPages, ForeignByteOnTheSecondPageWritesNothing) {
  const xsdt::rt::CodeWrite w = write();
  ASSERT_EQ(mprotect(pages_, 2 * page_, PROT_READ | PROT_WRITE), 0);
  at_[site_.size() - 1] ^= 0x01; // the site's last byte, on the second page
  ASSERT_EQ(mprotect(pages_, 2 * page_, PROT_READ | PROT_EXEC), 0);
  std::vector<unsigned char> before(at_, at_ + site_.size());
  xsdt::rt::PatchFailure failure;
  EXPECT_FALSE(xsdt::rt::apply_code_writes({w}, &failure));
  EXPECT_EQ(failure.code, XSDT_ERR_UNEXPECTED_BYTES) << failure.reason;
  EXPECT_EQ(std::memcmp(at_, before.data(), before.size()), 0);
  EXPECT_EQ(protection_of(reinterpret_cast<std::uintptr_t>(pages_)), "r-xp");
  EXPECT_EQ(protection_of(reinterpret_cast<std::uintptr_t>(pages_ + page_)),
            "r-xp");
}

// A write whose first bytes stay (a jump's condition mask flipped, an
// offset's low bytes kept) writes the bytes that change and leaves the
// others as they are.
TEST_F(SiteAcrossPages, AChangeOfTheLastByteAloneIsWritten) {
  xsdt::rt::CodeWrite w = write();
  std::memcpy(w.to, w.from, w.size);
  w.to[w.size - 1] = static_cast<unsigned char>(~w.from[w.size - 1]);
  xsdt::rt::PatchFailure failure;
  ASSERT_TRUE(xsdt::rt::apply_code_writes({w}, &failure)) << failure.reason;
  EXPECT_EQ(std::memcmp(at_, w.to, w.size), 0);
  EXPECT_EQ(protection_of(reinterpret_cast<std::uintptr_t>(pages_ + page_)),
            "r-xp");
}

// A batch used against its contract fails whole, with the reason, and
// writes nothing: applied before it was prepared, or holding writes that
// overlap.
TEST(CodeBatch, AppliedUnpreparedFailsAndSaysSo) {
  xsdt::rt::CodeBatch batch;
  xsdt::rt::PatchFailure failure;
  EXPECT_FALSE(batch.apply(&failure));
  EXPECT_EQ(failure.code, XSDT_ERR_INTERNAL);
  EXPECT_EQ(failure.reason, "a batch applied unprepared");
}

TEST_F(SiteAcrossPages, OverlappingWritesAreRefusedWhole) {
  xsdt::rt::CodeWrite w = write();
  xsdt::rt::CodeWrite overlapping = w;
  overlapping.addr += 1;
  overlapping.tag = 1;
  std::vector<unsigned char> before(at_, at_ + site_.size());
  xsdt::rt::CodeBatch batch({w, overlapping});
  xsdt::rt::PatchFailure failure;
  EXPECT_FALSE(batch.apply(&failure));
  EXPECT_EQ(failure.code, XSDT_ERR_INTERNAL);
  EXPECT_EQ(failure.reason, "empty, oversized or overlapping site write");
  EXPECT_EQ(std::memcmp(at_, before.data(), before.size()), 0);
}

} // namespace
