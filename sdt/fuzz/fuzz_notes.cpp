// Fuzzes the stapsdt note decoder and the checks run on its result. The
// decoder is reachable only through a whole ELF file, so the input is one
// selector byte (class, machine, which sections exist: see TinyElfOptions)
// and then the raw contents of .note.stapsdt, which tiny_elf() wraps in a
// well-formed file. Every mutation thus lands in the note framing and
// descriptors rather than in ELF headers that libelf rejects first.
#include "fuzz_support.h"
#include "tiny_elf.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  if (size == 0)
    return 0;
  static xsdt::fuzz::MemFile file;
  auto options = xsdt::fuzz::TinyElfOptions::from_selector(data[0]);
  std::vector<std::uint8_t> elf =
      xsdt::fuzz::tiny_elf(options, {data + 1, size - 1});
  xsdt::fuzz::inspect_file(file.write(elf.data(), elf.size()));
  return 0;
}
