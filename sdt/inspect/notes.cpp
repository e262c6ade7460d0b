#include "notes.h"

#include <elf.h>

#include <cstring>

namespace xsdt::inspect {
namespace {

constexpr std::uint64_t align4(std::uint64_t n) {
  return (n + 3) & ~std::uint64_t{3};
}

// A note owner for messages: printable ASCII only, at most 32 bytes.
std::string printable(std::span<const std::uint8_t> bytes) {
  std::string out;
  for (std::uint8_t c : bytes) {
    if (c == 0 || out.size() == 32)
      break;
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

// The NUL-terminated string at `at` in `desc`, advancing `at` past the NUL.
std::string take_string(std::span<const std::uint8_t> desc, std::size_t &at,
                        const std::string &where, const char *what) {
  const void *nul = at < desc.size()
                        ? std::memchr(desc.data() + at, 0, desc.size() - at)
                        : nullptr;
  if (!nul)
    throw InputError("garbled stapsdt note at " + where + ": the " + what +
                     " string is not NUL-terminated within descsz " +
                     std::to_string(desc.size()));
  std::size_t end = static_cast<std::size_t>(
      static_cast<const std::uint8_t *>(nul) - desc.data());
  std::string s(reinterpret_cast<const char *>(desc.data() + at), end - at);
  at = end + 1;
  return s;
}

ProbeNote decode(std::span<const std::uint8_t> desc, unsigned word,
                 ByteOrder order, const std::string &where) {
  ProbeNote note;
  note.where = where;
  note.descsz = static_cast<std::uint32_t>(desc.size());
  if (desc.size() < 3 * word)
    throw InputError("garbled stapsdt note at " + where + ": descsz " +
                     std::to_string(desc.size()) + " is too small for three " +
                     std::to_string(word) + "-byte addresses");
  note.pc = read_address(desc, 0, word, order);
  note.base = read_address(desc, word, word, order);
  note.semaphore = read_address(desc, 2 * word, word, order);
  std::size_t at = 3 * word;
  note.provider = take_string(desc, at, where, "provider");
  note.name = take_string(desc, at, where, "name");
  note.args = take_string(desc, at, where, "args");
  note.trailing = static_cast<std::uint32_t>(desc.size() - at);
  return note;
}

void scan_section(const ElfImage &image, const Section &section,
                  NoteScan &scan) {
  std::span<const std::uint8_t> bytes = image.contents(section);
  std::uint64_t off = 0;
  while (off < bytes.size()) {
    std::string where = section.name + "+" + hex(off);
    if (bytes.size() - off < 12)
      throw InputError("truncated note header at " + where);
    const ByteOrder order = image.byte_order();
    std::uint32_t namesz = read_u32(bytes, off, order);
    std::uint32_t descsz = read_u32(bytes, off + 4, order);
    std::uint32_t type = read_u32(bytes, off + 8, order);
    std::uint64_t name_at = off + 12;
    std::uint64_t desc_at = name_at + align4(namesz);
    if (desc_at > bytes.size() || descsz > bytes.size() - desc_at)
      throw InputError("truncated note at " + where + ": namesz " +
                       std::to_string(namesz) + ", descsz " +
                       std::to_string(descsz) + " run past the end of " +
                       section.name);
    auto name = bytes.subspan(name_at, namesz);
    auto desc = bytes.subspan(desc_at, descsz);
    off = desc_at + align4(descsz); // the last note may lack its padding

    static constexpr char kOwner[] = "stapsdt"; // with its NUL: namesz 8
    bool stapsdt = namesz == sizeof kOwner &&
                   std::memcmp(name.data(), kOwner, sizeof kOwner) == 0;
    if (!stapsdt) {
      std::string owner = printable(name);
      scan.problems.push_back(where + ": " +
                              (owner == kOwner
                                   ? "stapsdt note with namesz " +
                                         std::to_string(namesz) + ", expected 8"
                                   : "foreign note (owner '" + owner +
                                         "', type " + std::to_string(type) +
                                         ") in " + section.name));
      continue;
    }
    if (type != kStapsdtNoteType) {
      scan.problems.push_back(where + ": stapsdt note type " +
                              std::to_string(type) +
                              ", expected 3 (stapsdt v3)");
      continue;
    }
    scan.probes.push_back(
        decode(desc, image.address_size(), image.byte_order(), where));
  }
}

} // namespace

std::string ProbeNote::label() const {
  return provider + ":" + name + " @" + hex(pc);
}

NoteScan scan_notes(const ElfImage &image) {
  NoteScan scan;
  for (const Section &s : image.sections()) {
    if (s.name != ".note.stapsdt")
      continue;
    if (s.type != SHT_NOTE) {
      scan.problems.push_back(s.name + " is not SHT_NOTE (type " +
                              std::to_string(s.type) + ")");
      continue;
    }
    scan_section(image, s, scan);
  }
  return scan;
}

} // namespace xsdt::inspect
