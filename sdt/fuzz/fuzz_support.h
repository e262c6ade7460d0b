// Shared pieces of the xsdt fuzz harnesses.
#ifndef XSDT_FUZZ_SUPPORT_H
#define XSDT_FUZZ_SUPPORT_H

#include "checks.h"
#include "elf_image.h"
#include "fuzz_require.h"
#include "notes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace xsdt::fuzz {

// ElfImage::load only takes a path; one memfd, rewritten for every input and
// opened through /proc/self/fd, hands it the bytes without touching the
// disk (a temporary file per input would cost more than the parse).
class MemFile {
public:
  MemFile() {
    fd_ = memfd_create("xsdt-fuzz", 0);
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  MemFile(const MemFile &) = delete;
  MemFile &operator=(const MemFile &) = delete;

  const std::string &write(const std::uint8_t *data, std::size_t size) {
    if (ftruncate(fd_, 0) != 0) {
      std::perror("ftruncate");
      std::abort();
    }
    std::size_t done = 0;
    while (done < size) {
      ssize_t n =
          pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) {
        std::perror("pwrite");
        std::abort();
      }
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

private:
  int fd_ = -1;
  std::string path_;
};

// What `xsdt-inspect check` and `list` do with a file, plus the properties
// the decoded notes must have whatever the input. Garbled input may end in
// InputError (the documented outcome); any other exception escapes and
// libFuzzer reports it.
inline void inspect_file(const std::string &path) {
  using namespace xsdt::inspect;
  try {
    ElfImage image = ElfImage::load(path);
    for (const Section &s : image.sections()) {
      if (!s.has_contents())
        continue;
      try {
        auto bytes = image.contents(s);
        XSDT_FUZZ_REQUIRE(bytes.size() == s.size);
      } catch (const InputError &) {
        // A section past the end of the file: reported, not read.
      }
    }
    NoteScan scan = scan_notes(image);
    for (const ProbeNote &note : scan.probes) {
      // The strings are cut at their NUL, and what is left over is counted.
      XSDT_FUZZ_REQUIRE(note.provider.find('\0') == std::string::npos);
      XSDT_FUZZ_REQUIRE(note.name.find('\0') == std::string::npos);
      XSDT_FUZZ_REQUIRE(note.args.find('\0') == std::string::npos);
      XSDT_FUZZ_REQUIRE(note.trailing <= note.descsz);
      XSDT_FUZZ_REQUIRE(3 * image.address_size() + note.provider.size() +
                            note.name.size() + note.args.size() + 3 +
                            note.trailing ==
                        note.descsz);
      (void)note.label();
    }
    CheckGroups note_groups;
    note_groups.sdt = false;
    CheckReport report = run_checks(image, scan, nullptr, note_groups);
    XSDT_FUZZ_REQUIRE(report.probes == scan.probes.size());
  } catch (const InputError &) {
  }
  // The SDT(9) definition and site records, separately, so that a file
  // whose notes are malformed still has its records decoded and checked.
  try {
    ElfImage image = ElfImage::load(path);
    NoteScan scan;
    SdtScan sdt = scan_sdt(image, "fuzz");
    CheckGroups sdt_only;
    sdt_only.notes = sdt_only.sites = sdt_only.specs = false;
    CheckReport report = run_checks(image, scan, &sdt, sdt_only);
    XSDT_FUZZ_REQUIRE(report.probes == 0);
  } catch (const InputError &) {
  }
}

} // namespace xsdt::fuzz

#endif // XSDT_FUZZ_SUPPORT_H
