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
#include "machdep.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <map>

namespace xsdt::rt {
namespace {

constexpr std::string_view kProbesSection = "xsdt_sdt_probes";
constexpr std::string_view kSitesSection = "xsdt_sdt_sites";
constexpr std::size_t kDefinitionHeaderSize = 12; // size, probe, 4 bytes
constexpr std::size_t kSiteRecordSize = 12;       // site, target, probe
constexpr unsigned kDefinitionVersion = 1;
constexpr unsigned kMaxArgs = 7;
constexpr unsigned kFlagTranslated = 1, kFlagUntyped = 2;
// struct xsdt_sdt_probe is two pointers; libxsdt writes the second one, so
// the whole object must lie in writable data.
constexpr std::size_t kProbeObjectSize = 2 * sizeof(void *);
// The largest jump site of any arch, for a buffer that encode_jump fills.
constexpr std::size_t kMaxSiteSize = 16;

std::string hex(std::uintptr_t value) {
  char buf[2 + 2 * sizeof value + 1];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, value);
  return buf;
}

std::string bytes_text(const unsigned char *bytes, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i)
      out += ' ';
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// The records are in the target's own byte order: plain loads.
std::uint32_t load_u32(const unsigned char *p) {
  std::uint32_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// The address a self-relative field designates: its value plus its own
// address, wrapping like the assembler's `sym - .` did.
std::uintptr_t self_relative(const unsigned char *field) {
  std::int32_t offset;
  std::memcpy(&offset, field, sizeof offset);
  return reinterpret_cast<std::uintptr_t>(field) +
         static_cast<std::uintptr_t>(static_cast<std::intptr_t>(offset));
}

const SdtSegment *segment_with(const std::vector<SdtSegment> &segments,
                               std::uintptr_t address, std::size_t length,
                               int prot) {
  for (const SdtSegment &s : segments)
    if ((s.prot & prot) == prot && address >= s.start && address < s.end &&
        length <= s.end - address)
      return &s;
  return nullptr;
}

// FreeBSD's rule: each `__` of a probe name reads as `-`, left to right.
std::string dashed_name(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '_' && i + 1 < raw.size() && raw[i + 1] == '_') {
      out += '-';
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::string basename_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path
                                                     : path.substr(slash + 1));
}

// Takes the NUL-terminated string at p, advancing p past its NUL; false
// when no NUL comes before end.
bool take_string(const unsigned char *&p, const unsigned char *end,
                 std::string &out) {
  const void *nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
  if (!nul)
    return false;
  const auto *stop = static_cast<const unsigned char *>(nul);
  out.assign(reinterpret_cast<const char *>(p),
             static_cast<std::size_t>(stop - p));
  p = stop + 1;
  return true;
}

// Decodes the definition record [record, record + size) (its framing has
// been checked) into def; returns why it is invalid, or "".
std::string parse_definition(const unsigned char *record, std::size_t size,
                             SdtProbeDef &def) {
  unsigned version = record[8], argc = record[9], flags = record[10],
           reserved = record[11];
  if (version != kDefinitionVersion)
    return "version " + std::to_string(version) + ", expected " +
           std::to_string(kDefinitionVersion);
  if (argc > kMaxArgs)
    return "argc " + std::to_string(argc) + " exceeds " +
           std::to_string(kMaxArgs);
  if ((flags & ~(kFlagTranslated | kFlagUntyped)) != 0 ||
      flags == (kFlagTranslated | kFlagUntyped))
    return "unknown flags " + hex(flags);
  if (reserved != 0)
    return "reserved byte " + hex(reserved) + ", expected 0";

  const unsigned char *p = record + kDefinitionHeaderSize;
  const unsigned char *end = record + size;
  const char *const kWhat[] = {"provider", "module", "function", "name"};
  std::string *const fields[] = {&def.provider, &def.module, &def.function,
                                 &def.name};
  for (std::size_t i = 0; i < 4; ++i)
    if (!take_string(p, end, *fields[i]))
      return std::string("the ") + kWhat[i] +
             " string is not NUL-terminated within the record's " +
             std::to_string(size) + " bytes";
  if (def.provider.empty() || def.name.empty())
    return "empty provider or name";
  def.argc = static_cast<int>(argc);
  def.flags = flags;
  def.native_types.resize(argc);
  def.translated_types.resize(argc);
  for (unsigned i = 0; i < argc; ++i) {
    if (!take_string(p, end, def.native_types[i]) ||
        !take_string(p, end, def.translated_types[i]))
      return "the types of arg" + std::to_string(i) +
             " are not NUL-terminated within the record's " +
             std::to_string(size) + " bytes (argc " + std::to_string(argc) +
             ")";
  }
  // What follows the last string is the padding to 4 bytes: more, or
  // non-zero bytes, mean argc and the strings disagree.
  std::size_t rest = static_cast<std::size_t>(end - p);
  if (rest >= 4 || std::any_of(p, end, [](unsigned char c) { return c; }))
    return std::to_string(rest) +
           " bytes after the last string where at most 3 zero bytes of "
           "padding belong (argc " +
           std::to_string(argc) + ")";
  return {};
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
    std::size_t off = 0;
    while (off < section.size()) {
      const unsigned char *record = section.data() + off;
      std::size_t left = section.size() - off;
      if (left < 4) {
        if (std::any_of(record, record + left,
                        [](unsigned char c) { return c; }))
          invalid_definition(record, std::to_string(left) +
                                         " stray bytes at the end of " +
                                         std::string(kProbesSection));
        return;
      }
      std::uint32_t size = load_u32(record);
      if (size == 0) { // zero padding between input sections
        off += 4;
        continue;
      }
      if (size < kDefinitionHeaderSize || size % 4 != 0 || size > left) {
        // Without a trustworthy size the next record cannot be found.
        invalid_definition(
            record,
            "size " + std::to_string(size) +
                (size < kDefinitionHeaderSize
                     ? " is smaller than the 12-byte header"
                 : size % 4 != 0 ? " is not a multiple of 4"
                                 : " runs past the end of the section (" +
                                       std::to_string(left) + " bytes left)") +
                "; the rest of " + std::string(kProbesSection) + " is skipped");
        return;
      }
      add_definition(record, size);
      off += size;
    }
  }

  void scan_sites(std::span<const unsigned char> section) {
    std::size_t whole = section.size() / kSiteRecordSize * kSiteRecordSize;
    if (whole != section.size())
      out_.invalid.push_back(
          image_.label + ": " + std::string(kSitesSection) + " at " +
          hex(reinterpret_cast<std::uintptr_t>(section.data())) + ": size " +
          std::to_string(section.size()) + " is not a multiple of " +
          std::to_string(kSiteRecordSize) + "; the last " +
          std::to_string(section.size() - whole) + " bytes are ignored");
    for (std::size_t off = 0; off < whole; off += kSiteRecordSize)
      add_site(section.data() + off);
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
      SdtProbeDef &def = out_.probes[d];
      if (def.module.empty())
        def.module = image_.module;
      if (def.function.empty())
        def.function = common_function(d, functions);
      def.name = dashed_name(def.name);
      def.id =
          def.provider + ":" + def.module + ":" + def.function + ":" + def.name;
    }
    for (SdtSite &s : sites_)
      out_.sites.push_back(std::move(s));
  }

private:
  void invalid_definition(const unsigned char *record, const std::string &why) {
    out_.invalid.push_back(
        image_.label + ": definition record #" + std::to_string(def_count_) +
        " at " + hex(reinterpret_cast<std::uintptr_t>(record)) + ": " + why);
  }

  void add_definition(const unsigned char *record, std::size_t size) {
    SdtProbeDef def;
    std::string why = parse_definition(record, size, def);
    def.probe = self_relative(record + 4);
    if (why.empty() && !segment_with(image_.segments, def.probe,
                                     kProbeObjectSize, PROT_READ | PROT_WRITE))
      why = "probe object " + hex(def.probe) +
            " is not inside writable data of the object";
    if (why.empty())
      if (auto seen = def_by_probe_.find(def.probe);
          seen != def_by_probe_.end())
        why = "probe object " + hex(def.probe) + " already has a definition (" +
              out_.probes[seen->second].name + ")";
    if (!why.empty()) {
      invalid_definition(record, why);
    } else {
      def.object = image_.object;
      def_by_probe_.emplace(def.probe, out_.probes.size());
      out_.probes.push_back(std::move(def));
    }
    ++def_count_;
  }

  void add_site(const unsigned char *record) {
    std::uintptr_t site = self_relative(record);
    std::uintptr_t target = self_relative(record + 4);
    std::uintptr_t probe = self_relative(record + 8);
    std::string why = site_problem(site, target, probe);
    if (!why.empty()) {
      out_.invalid.push_back(
          image_.label + ": site record #" + std::to_string(site_count_) +
          " at " + hex(reinterpret_cast<std::uintptr_t>(record)) + ": " + why);
    } else {
      SdtSite s;
      s.site = site;
      s.target = target;
      s.def = def_by_probe_.at(probe);
      s.prot = segment_with(image_.segments, site, machdep::jump_site_size(),
                            PROT_EXEC)
                   ->prot;
      sites_.push_back(std::move(s));
    }
    ++site_count_;
  }

  // Why the record cannot be patched, or "".
  std::string site_problem(std::uintptr_t site, std::uintptr_t target,
                           std::uintptr_t probe) const {
    const std::size_t size = machdep::jump_site_size();
    const std::size_t align = machdep::jump_site_align();
    const SdtSegment *code =
        segment_with(image_.segments, site, size, PROT_EXEC);
    if (!code)
      return "site " + hex(site) + " is not inside an executable segment";
    if (!segment_with(image_.segments, target, 1, PROT_EXEC))
      return "target " + hex(target) + " is not inside an executable segment";
    if (target - site < size)
      return "target " + hex(target) + " lies inside the site " + hex(site);
    if (site % align != 0)
      return "site " + hex(site) + " is not " + std::to_string(align) +
             "-byte aligned";
    unsigned char jump[kMaxSiteSize];
    if (size > sizeof jump || !machdep::encode_jump(site, target, jump))
      return "target " + hex(target) + " is out of the jump's reach from " +
             hex(site);
    if (!def_by_probe_.count(probe))
      return "probe " + hex(probe) + " is the probe of no valid definition";
    if (check_bytes_) {
      if (!(code->prot & PROT_READ))
        return "site " + hex(site) +
               " is in an execute-only segment: its bytes cannot be checked";
      const auto *bytes = reinterpret_cast<const unsigned char *>(site);
      if (std::memcmp(bytes, machdep::jump_site_nop(), size) != 0)
        return "site " + hex(site) + " holds " + bytes_text(bytes, size) +
               ", not the NOP " + bytes_text(machdep::jump_site_nop(), size);
    }
    return {};
  }

  // The one function holding every valid site of definition d, or "" when
  // they are in several, in none, or there are no sites.
  std::string common_function(std::size_t d,
                              const std::vector<SdtFunction> &functions) {
    const SdtFunction *common = nullptr;
    for (std::size_t i = 0; i < sites_.size(); ++i) {
      if (sites_[i].def != d)
        continue;
      const SdtFunction &f = functions[i];
      if (f.name.empty())
        return {};
      if (!common)
        common = &f;
      else if (f.name != common->name || f.start != common->start)
        return {};
    }
    return common ? common->name : std::string();
  }

  const SdtObjectImage &image_;
  const bool check_bytes_;
  SdtDiscovery &out_;
  const std::size_t first_def_;
  std::map<std::uintptr_t, std::size_t> def_by_probe_; // -> out_.probes
  std::vector<SdtSite> sites_;                         // valid, this object
  std::size_t def_count_ = 0, site_count_ = 0;         // records seen
};

// ---- Function symbols of an object's file ----------------------------------

struct SymbolMatch {
  bool found = false;
  std::uintptr_t start = 0;
  int rank = 0; // binding: global 2, weak 1, local 0
  const ElfW(Shdr) *strings = nullptr;
  ElfW(Word) name = 0;
};

// st_info packs binding and type the same way in ELF32 and ELF64.
int binding_rank(unsigned char info) {
  switch (ELF64_ST_BIND(info)) {
  case STB_GLOBAL:
    return 2;
  case STB_WEAK:
    return 1;
  default:
    return 0;
  }
}

// Streams one symbol table and records, for each wanted address (sorted),
// the best function symbol holding it: the innermost (latest start), then
// the strongest binding, then the first in the table, so that aliases
// resolve the same way every time.
void match_symbols(const ElfFile &file, const ElfW(Shdr) & table,
                   std::uintptr_t bias,
                   const std::vector<std::uintptr_t> &sorted,
                   std::vector<SymbolMatch> &matches) {
  const std::vector<ElfW(Shdr)> &sections = file.sections();
  if (table.sh_entsize != sizeof(ElfW(Sym)) ||
      table.sh_link >= sections.size() ||
      sections[table.sh_link].sh_type != SHT_STRTAB)
    return;
  const ElfW(Shdr) &strings = sections[table.sh_link];
  const std::size_t count = table.sh_size / sizeof(ElfW(Sym));
  // In chunks: a big program's .symtab can be tens of megabytes.
  constexpr std::size_t kChunk = 512;
  std::vector<ElfW(Sym)> chunk(kChunk);
  for (std::size_t first = 0; first < count; first += kChunk) {
    std::size_t n = std::min(kChunk, count - first);
    if (!file.read_at(table.sh_offset + first * sizeof(ElfW(Sym)), chunk.data(),
                      n * sizeof(ElfW(Sym))))
      return;
    for (std::size_t k = 0; k < n; ++k) {
      const ElfW(Sym) &sym = chunk[k];
      unsigned type = ELF64_ST_TYPE(sym.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
          sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
          sym.st_size == 0)
        continue;
      std::uintptr_t start = bias + sym.st_value;
      std::uintptr_t end = start + sym.st_size;
      if (end < start)
        continue;
      int rank = binding_rank(sym.st_info);
      for (auto it = std::lower_bound(sorted.begin(), sorted.end(), start);
           it != sorted.end() && *it < end; ++it) {
        SymbolMatch &m = matches[static_cast<std::size_t>(it - sorted.begin())];
        if (m.found &&
            (m.start > start || (m.start == start && m.rank >= rank)))
          continue;
        m = SymbolMatch{true, start, rank, &strings, sym.st_name};
      }
    }
  }
}

// The function symbol holding each address: from .symtab, and from
// .dynsym for the addresses .symtab does not cover (a stripped file keeps
// only .dynsym).
std::vector<SdtFunction>
functions_in_file(const ElfFile &file, std::uintptr_t bias,
                  const std::vector<std::uintptr_t> &addresses) {
  std::vector<std::uintptr_t> sorted = addresses;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<SymbolMatch> matches(sorted.size());
  for (const ElfW(Shdr) & section : file.sections())
    if (section.sh_type == SHT_SYMTAB)
      match_symbols(file, section, bias, sorted, matches);
  std::vector<std::uintptr_t> missing;
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (!matches[i].found)
      missing.push_back(sorted[i]);
  if (!missing.empty()) {
    std::vector<SymbolMatch> dynamic(missing.size());
    for (const ElfW(Shdr) & section : file.sections())
      if (section.sh_type == SHT_DYNSYM)
        match_symbols(file, section, bias, missing, dynamic);
    for (std::size_t i = 0, j = 0; i < sorted.size(); ++i)
      if (!matches[i].found)
        matches[i] = dynamic[j++];
  }

  std::vector<SdtFunction> found(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (matches[i].found)
      found[i] =
          SdtFunction{file.read_string(*matches[i].strings, matches[i].name),
                      matches[i].start};
  std::vector<SdtFunction> out;
  out.reserve(addresses.size());
  for (std::uintptr_t address : addresses)
    out.push_back(found[static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), address) -
        sorted.begin())]);
  return out;
}

// The main program's file name, for messages and the default module.
std::string main_program_path() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return program_invocation_name ? program_invocation_name : "";
  std::string path(buf, static_cast<std::size_t>(n));
  // The kernel marks a program whose file was replaced or removed.
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.size() > kDeleted.size() &&
      path.compare(path.size() - kDeleted.size(), kDeleted.size(), kDeleted) ==
          0)
    path.resize(path.size() - kDeleted.size());
  return path;
}

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
    if (!file.ok())
      continue; // the vdso, or a file without section headers
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
                              " at " + hex(address) + " (" +
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
