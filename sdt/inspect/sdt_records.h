// The SDT(9) records of <xsdt/sdt.h> in a linked ELF file: the definitions
// in xsdt_sdt_probes and the {site, target, probe} records in
// xsdt_sdt_sites (layout documented in sdt.h), validated with the rules
// libxsdt applies before it patches a site, and with the probe ids
// resolved the way libxsdt resolves them.
#ifndef XSDT_INSPECT_SDT_RECORDS_H
#define XSDT_INSPECT_SDT_RECORDS_H

#include "elf_image.h"
// The record layout and its decoder, shared with libxsdt.
#include "xsdt/sdt_record_format.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::inspect {

inline constexpr std::string_view kSdtProbesSection =
    sdt_format::kProbesSection;
inline constexpr std::string_view kSdtSitesSection = sdt_format::kSitesSection;

// One SDT_PROBE_DEFINE* record.
struct SdtDefinition {
  std::size_t index = 0;     // in xsdt_sdt_probes, from 0
  std::uint64_t address = 0; // of the record
  std::uint64_t probe = 0;   // of its struct xsdt_sdt_probe
  unsigned argc = 0, flags = 0;
  // As resolved: an empty module is the file's name, an empty function the
  // one function holding all the probe's valid sites, `__` in the name `-`.
  std::string provider, module, function, name, id;
  std::vector<std::string> native_types, translated_types;
  std::string problem; // why the record is invalid; "" when it is valid

  bool valid() const { return problem.empty(); }
  bool translated() const { return flags & 1; }
  bool typed() const { return !(flags & 2); }
  std::string label() const; // "definition record #3 at 0x2040"
};

// One {site, target, probe} record.
struct SdtSiteRecord {
  std::size_t index = 0;     // in xsdt_sdt_sites, from 0
  std::uint64_t address = 0; // of the record
  std::uint64_t site = 0, target = 0, probe = 0;
  std::string function; // the function symbol holding the site, or ""
  // The valid definition whose probe it names, or kNoDefinition.
  static constexpr std::size_t kNoDefinition = ~std::size_t{0};
  std::size_t definition = kNoDefinition;
  std::string problem; // why libxsdt would refuse it; "" when valid

  bool valid() const { return problem.empty(); }
  std::string label() const; // "site record #0 at 0x2078"
};

struct SdtScan {
  bool present = false; // the file has either section
  std::vector<SdtDefinition> definitions;
  std::vector<SdtSiteRecord> sites;
};

// Reads and validates the records of a linked file. `module` is the
// default module: the file's basename. A section whose framing cannot be
// decoded (no contents, not allocated, a definition size field that is too
// small, unaligned or runs past the section, a site section that is not a
// whole number of records) is malformed input: InputError. Anything else
// wrong with a record is its `problem`.
SdtScan scan_sdt(const ElfImage &image, const std::string &module);

// The file name without its directories: the default module.
std::string basename_of(std::string_view path);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_SDT_RECORDS_H
