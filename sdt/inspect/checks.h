// `xsdt-inspect check`: the note, site and spec checks.
#ifndef XSDT_INSPECT_CHECKS_H
#define XSDT_INSPECT_CHECKS_H

#include "elf_image.h"
#include "notes.h"
#include "sdt_records.h"

#include <cstddef>
#include <string>
#include <vector>

namespace xsdt::inspect {

struct CheckGroups {
  bool notes = true; // note layout, base, semaphore placement
  bool sites = true; // the patchable NOP at each (adjusted) pc
  bool specs = true; // every arg spec parses and is portable
  bool sdt = true;   // SDT(9) definition and site records (linked files)
  // Which of gdb, libbpf, bcc, perf and SystemTap reject or misread each
  // arg spec, and what they lose with it; only when asked for (--only).
  bool consumers = false;
};

struct CheckReport {
  std::vector<std::string> violations; // without the "FILE: " prefix
  std::size_t probes = 0, sites = 0, args = 0;
  std::size_t sdt_probes = 0, sdt_sites = 0; // records checked
};

// `sdt` is the file's SDT scan, or nullptr when groups.sdt is off.
CheckReport run_checks(const ElfImage &image, const NoteScan &scan,
                       const SdtScan *sdt, const CheckGroups &groups);

// pc and semaphore as consumers relocate them: shifted by
// sh_addr(.stapsdt.base) - base when that section exists and base != 0.
std::uint64_t adjusted(const ElfImage &image, const ProbeNote &note,
                       std::uint64_t address);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_CHECKS_H
