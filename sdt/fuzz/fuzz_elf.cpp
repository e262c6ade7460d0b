// Fuzzes the ELF reader (ElfImage::load over libelf) with whole files: the
// header and section-table checks that must turn truncated or hostile files
// into InputError before any out-of-range read, then the note scan and the
// checks on whatever sections survive.
#include "fuzz_support.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  static xsdt::fuzz::MemFile file;
  xsdt::fuzz::inspect_file(file.write(data, size));
  return 0;
}
