// Reading the stapsdt notes out of an ELF image.
#ifndef XSDT_INSPECT_NOTES_H
#define XSDT_INSPECT_NOTES_H

#include "elf_image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace xsdt::inspect {

inline constexpr std::uint32_t kStapsdtNoteType = 3;

// One decoded stapsdt v3 note.
struct ProbeNote {
  std::string where; // ".note.stapsdt+0x40": the note header's place
  std::uint64_t pc = 0, base = 0, semaphore = 0;
  std::string provider, name, args;
  std::uint32_t descsz = 0;
  std::uint32_t trailing = 0; // descriptor bytes after the args string

  std::string label() const; // "provider:name @0xPC"
};

struct NoteScan {
  std::vector<ProbeNote> probes;
  // Notes in .note.stapsdt that are not stapsdt v3 notes, one line each.
  std::vector<std::string> problems;
};

// Walks every `.note.stapsdt` section. A note whose framing or descriptor
// cannot be decoded (sizes running past the section, strings without their
// NUL) is garbled input: InputError.
NoteScan scan_notes(const ElfImage &image);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_NOTES_H
