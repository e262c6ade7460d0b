// consumer_buffer.h: an entry of every argument count writes exactly its
// own bytes (none past it, even at the ring's end) and drains back as it
// was appended.
#include "consumer_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using xsdt::rt::ThreadBuffer;

constexpr unsigned char kGuard = 0xa5;

TEST(ThreadBuffer, AnEntryFillsExactlyItsBytesAtTheRingsEnd) {
  for (int argc = 0; argc <= ThreadBuffer::kMaxArgs; ++argc) {
    const std::size_t size = ThreadBuffer::entry_bytes(argc);
    // The ring is exactly one entry, followed by guard words.
    std::vector<std::uint64_t> words(size / 8 + 4);
    auto *storage = reinterpret_cast<unsigned char *>(words.data());
    std::memset(storage, kGuard, words.size() * 8);
    ThreadBuffer buffer;
    buffer.attach(storage, size);
    std::uint64_t args[ThreadBuffer::kMaxArgs];
    for (int i = 0; i < ThreadBuffer::kMaxArgs; ++i)
      args[i] = 0x0101010101010101u * static_cast<std::uint64_t>(i + 1);
    ASSERT_TRUE(buffer.append(7, 1234, args, argc)) << argc;
    for (std::size_t i = size; i < words.size() * 8; ++i)
      ASSERT_EQ(storage[i], kGuard) << "argc " << argc << ": byte " << i;
    int seen = 0;
    buffer.drain([&](std::uint32_t probe, std::uint64_t timestamp,
                     const std::uint64_t *got, int got_argc) {
      ++seen;
      EXPECT_EQ(probe, 7u);
      EXPECT_EQ(timestamp, 1234u);
      EXPECT_EQ(got_argc, argc);
      for (int i = 0; i < got_argc; ++i)
        EXPECT_EQ(got[i], args[i]) << "argc " << argc << ", arg " << i;
      return true;
    });
    EXPECT_EQ(seen, 1) << argc;
  }
}

} // namespace
