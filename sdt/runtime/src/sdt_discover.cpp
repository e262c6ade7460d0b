// SDT(9) discovery: the xsdt_sdt_probes and xsdt_sdt_sites records of every
// loaded object (layout in <xsdt/sdt.h>). Both sections are SHF_ALLOC, so
// their contents are read from memory, where the self-relative offsets
// already lead to run-time addresses (no relocation, no load bias); only the
// section headers (to find them) and the symbol tables (to name functions)
// come from the file on disk. A stale file or a forged record must never
// make us read outside the object or accept a site we could not patch:
// every address is checked against the object's segments first.
#include "elf_file.h"
#include "internal.h"
#include "isa.h"
#include "machdep.h"
#include "object_symbols.h"
#include "xsdt/hex_text.h"
#include "xsdt/sdt_record_format.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>

namespace xsdt::rt {
namespace {

using sdt_format::kProbesSection;
using sdt_format::kSiteRecordSize;
using sdt_format::kSitesSection;

// The records are in this process's own byte order.
constexpr ByteOrder kOrder = kNativeByteOrder;
// Addresses in memory wrap at the pointer's width.
constexpr std::uint64_t kAddressMask = UINTPTR_MAX;

std::uintptr_t address_of(const unsigned char *p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

// struct xsdt_sdt_probe is two pointers; libxsdt writes the second one, so
// the whole object must lie in writable data.
constexpr std::size_t kProbeObjectSize = 2 * sizeof(void *);
// The largest jump site of any arch, for a buffer that encode_jump fills.
constexpr std::size_t kMaxSiteSize = 16;

const SdtSegment *segment_with(const std::vector<SdtSegment> &segments,
                               std::uintptr_t address, std::size_t length,
                               int prot) {
  for (const SdtSegment &s : segments)
    if ((s.prot & prot) == prot && address >= s.start && address < s.end &&
        length <= s.end - address)
      return &s;
  return nullptr;
}

// One object's records: definitions first (sites refer to them), then
// sites, then the ids, which need the functions holding the sites.
class ObjectScanner {
public:
  ObjectScanner(const SdtObjectImage &image, bool check_bytes,
                SdtDiscovery &out)
      : image_(image), check_bytes_(check_bytes), out_(out),
        first_def_(out.probes.size()) {}

  void scan_definitions(std::span<const unsigned char> section) {
    std::optional<sdt_format::FramingError> error =
        sdt_format::walk_definitions(section, kProbesSection, kOrder,
                                     [&](std::size_t off, std::size_t size) {
                                       add_definition(section, off, size);
                                     });
    if (error)
      invalid_definition(section.data() + error->offset,
                         error->what + (error->bad_size
                                            ? "; the rest of " +
                                                  std::string(kProbesSection) +
                                                  " is skipped"
                                            : std::string()));
  }

  void scan_sites(std::span<const unsigned char> section) {
    std::size_t whole = section.size() / kSiteRecordSize * kSiteRecordSize;
    if (whole != section.size())
      out_.invalid.push_back(
          image_.label + ": " + std::string(kSitesSection) + " at " +
          hex_number(address_of(section.data())) + ": size " +
          std::to_string(section.size()) + " is not a multiple of " +
          std::to_string(kSiteRecordSize) + "; the last " +
          std::to_string(section.size() - whole) + " bytes are ignored");
    for (std::size_t off = 0; off < whole; off += kSiteRecordSize)
      add_site(section, off);
  }

  // Names the functions holding the sites, applies the id defaults and
  // publishes the object's sites.
  void finish() {
    std::vector<std::uintptr_t> addresses;
    for (const SdtSite &s : sites_)
      addresses.push_back(s.site);
    std::vector<SdtFunction> functions;
    if (image_.functions_at && !addresses.empty())
      functions = image_.functions_at(addresses);
    functions.resize(addresses.size());
    for (std::size_t i = 0; i < sites_.size(); ++i)
      sites_[i].function = functions[i].name;

    for (std::size_t d = first_def_; d < out_.probes.size(); ++d) {
      sdt_format::resolve_id(out_.probes[d], image_.module,
                             [&] { return common_function(d, functions); });
    }
    for (SdtSite &s : sites_)
      out_.sites.push_back(std::move(s));
  }

private:
  void invalid_definition(const unsigned char *record, const std::string &why) {
    out_.invalid.push_back(image_.label + ": definition record #" +
                           std::to_string(def_count_) + " at " +
                           hex_number(address_of(record)) + ": " + why);
  }

  void add_definition(std::span<const unsigned char> section, std::size_t off,
                      std::size_t size) {
    const unsigned char *record = section.data() + off;
    SdtProbeDef def;
    std::string why = sdt_format::decode_definition(section, off, size, def);
    def.probe = static_cast<std::uintptr_t>(sdt_format::self_relative(
        section, off + 4, address_of(record + 4), kAddressMask, kOrder));
    if (why.empty() && !segment_with(image_.segments, def.probe,
                                     kProbeObjectSize, PROT_READ | PROT_WRITE))
      why = "probe object " + hex_number(def.probe) +
            " is not inside writable data of the object";
    if (why.empty())
      if (auto seen = def_by_probe_.find(def.probe);
          seen != def_by_probe_.end())
        why = "probe object " + hex_number(def.probe) +
              " already has a definition (" + out_.probes[seen->second].name +
              ")";
    if (!why.empty()) {
      invalid_definition(record, why);
    } else {
      def.object = image_.object;
      def_by_probe_.emplace(def.probe, out_.probes.size());
      out_.probes.push_back(std::move(def));
    }
    ++def_count_;
  }

  void add_site(std::span<const unsigned char> section, std::size_t off) {
    const unsigned char *record = section.data() + off;
    const sdt_format::SiteFields fields = sdt_format::decode_site(
        section, off, address_of(record), kAddressMask, kOrder);
    const auto site = static_cast<std::uintptr_t>(fields.site);
    const auto target = static_cast<std::uintptr_t>(fields.target);
    const auto probe = static_cast<std::uintptr_t>(fields.probe);
    const SiteEncoding *encoding = &isa::first_encoding();
    std::string why = site_problem(site, target, probe, &encoding);
    if (!why.empty()) {
      out_.invalid.push_back(image_.label + ": site record #" +
                             std::to_string(site_count_) + " at " +
                             hex_number(address_of(record)) + ": " + why);
    } else {
      SdtSite s;
      s.site = site;
      s.target = target;
      s.def = def_by_probe_.at(probe);
      s.encoding = encoding;
      s.prot =
          segment_with(image_.segments, site, isa::jump_site_size(), PROT_EXEC)
              ->prot;
      sites_.push_back(std::move(s));
    }
    ++site_count_;
  }

  // Why the record cannot be patched, or "". Sets *encoding to the
  // instruction set of the site, told by its bytes: the NOP of one whose
  // sites take jumps (or, while libxsdt has sites patched, that NOP's jump
  // or trap); the first encoding when the bytes cannot be read.
  std::string site_problem(std::uintptr_t site, std::uintptr_t target,
                           std::uintptr_t probe,
                           const SiteEncoding **encoding) const {
    const std::size_t size = isa::jump_site_size();
    const std::size_t align = isa::jump_site_align();
    const SdtSegment *code =
        segment_with(image_.segments, site, size, PROT_EXEC);
    if (!code)
      return "site " + hex_number(site) +
             " is not inside an executable segment";
    if (!segment_with(image_.segments, target, 1, PROT_EXEC))
      return "target " + hex_number(target) +
             " is not inside an executable segment";
    if (target - site < size)
      return "target " + hex_number(target) + " lies inside the site " +
             hex_number(site);
    if (site % align != 0)
      return "site " + hex_number(site) + " is not " + std::to_string(align) +
             "-byte aligned";
    if (size > kMaxSiteSize)
      return "site size " + std::to_string(size) + " is too large";
    const auto *bytes = reinterpret_cast<const unsigned char *>(site);
    if (code->prot & PROT_READ) {
      if (const SiteEncoding *e = isa::jump_encoding_at(site, target, bytes))
        *encoding = e;
    } else if (check_bytes_) {
      return "site " + hex_number(site) +
             " is in an execute-only segment: its bytes cannot be checked";
    }
    unsigned char jump[kMaxSiteSize];
    if (!isa::encode_jump(**encoding, site, target, jump))
      return "target " + hex_number(target) +
             " is out of the jump's reach from " + hex_number(site);
    if (!def_by_probe_.count(probe))
      return "probe " + hex_number(probe) +
             " is the probe of no valid definition";
    if (check_bytes_) {
      unsigned char nop[kMaxSiteSize];
      isa::jump_site_nop(**encoding, site, target, nop); // in reach
      if (std::memcmp(bytes, nop, size) != 0)
        return "site " + hex_number(site) + " holds " + hex_bytes(bytes, size) +
               ", not the NOP " + hex_bytes(nop, size);
    }
    return {};
  }

  // The one function holding every valid site of definition d, or "" when
  // they are in several, in none, or there are no sites.
  std::string common_function(std::size_t d,
                              const std::vector<SdtFunction> &functions) {
    sdt_format::CommonFunction common;
    for (std::size_t i = 0; i < sites_.size(); ++i)
      if (sites_[i].def == d)
        common.add(functions[i].name, functions[i].start);
    return common.name();
  }

  const SdtObjectImage &image_;
  const bool check_bytes_;
  SdtDiscovery &out_;
  const std::size_t first_def_;
  std::map<std::uintptr_t, std::size_t> def_by_probe_; // -> out_.probes
  std::vector<SdtSite> sites_;                         // valid, this object
  std::size_t def_count_ = 0, site_count_ = 0;         // records seen
};

} // namespace

void discover_sdt_object(const SdtObjectImage &image, bool check_bytes,
                         SdtDiscovery &out) {
  ObjectScanner scanner(image, check_bytes, out);
  for (std::span<const unsigned char> section : image.probe_sections)
    scanner.scan_definitions(section);
  for (std::span<const unsigned char> section : image.site_sections)
    scanner.scan_sites(section);
  scanner.finish();
}

SdtDiscovery discover_sdt(bool check_bytes) {
  SdtDiscovery out;
  for (const LoadedObject &object : loaded_objects()) {
    ElfFile file(object.file_path());
    // The program's file, or a library's by its path, that cannot be
    // opened or read (no /proc, a library removed from disk, an I/O
    // error) is reported; the vdso, whose name is no path, has no file.
    const bool has_path =
        object.name.empty() || object.name.find('/') != std::string::npos;
    if (int e = file.open_errno() ? file.open_errno() : file.read_errno();
        e && has_path) {
      out.complete = false;
      out.invalid.push_back(
          std::string(object.file_path()) +
          (file.open_errno() ? ": cannot open it: " : ": cannot read it: ") +
          std::strerror(e) + "; its SDT records are not read");
    }
    if (!file.ok())
      continue; // the vdso, or a file without section headers
    if (std::string why = file.mismatch(object); !why.empty()) {
      out.invalid.push_back(
          (object.name.empty() ? main_program_path() : object.name) +
          ": the file on disk is not the loaded object (replaced since it "
          "was loaded?): " +
          why + "; its SDT records are not read");
      continue;
    }
    SdtObjectImage image;
    bool has_records = false;
    for (const ElfW(Shdr) & section : file.sections()) {
      std::string_view name = file.section_name(section);
      if (name != kProbesSection && name != kSitesSection)
        continue;
      if (!has_records) {
        has_records = true;
        image.object = object.name;
        image.label = object.name.empty() ? main_program_path() : object.name;
        image.module = basename_of(image.label);
        for (const LoadSegment &s : object.segments)
          image.segments.push_back(SdtSegment{s.start, s.end, s.prot});
      }
      // The link-time address plus the load bias; trusted only inside the
      // object's own readable memory.
      std::uintptr_t address = object.bias + section.sh_addr;
      if (!(section.sh_flags & SHF_ALLOC) ||
          !object.readable(address, section.sh_size)) {
        out.invalid.push_back(image.label + ": section " + std::string(name) +
                              " at " + hex_number(address) + " (" +
                              std::to_string(section.sh_size) +
                              " bytes) is not in the object's loaded memory; "
                              "its records are skipped");
        continue;
      }
      std::span<const unsigned char> contents(
          reinterpret_cast<const unsigned char *>(address),
          static_cast<std::size_t>(section.sh_size));
      (name == kProbesSection ? image.probe_sections : image.site_sections)
          .push_back(contents);
    }
    if (!has_records)
      continue;
    image.functions_at = [&](const std::vector<std::uintptr_t> &addresses) {
      return functions_in_file(file, object.bias, addresses);
    };
    discover_sdt_object(image, check_bytes, out);
  }
  return out;
}

} // namespace xsdt::rt
