#include "sdt_records.h"

#include "xsdt/hex_text.h"

// The jump encodings are the arch descriptor's, the functions libxsdt
// patches with, so a site this tool accepts is one the runtime can enable.
#include "xsdt/arch_port.h"

#include <elf.h>

#include <algorithm>
#include <map>
#include <optional>
#include <span>

namespace xsdt::inspect {
namespace {

using sdt_format::kSiteRecordSize;
using sdt_format::take_string;

// The largest site of any arch, for the buffer encode_jump fills.
constexpr std::size_t kMaxSiteSize = 16;

const Section *section_at(const ElfImage &image, std::uint64_t address,
                          std::uint64_t length, bool (Section::*kind)() const) {
  for (const Section &s : image.sections())
    if (s.allocated() && (s.*kind)() && s.contains(address, length))
      return &s;
  return nullptr;
}

const Section *code_section_at(const ElfImage &image, std::uint64_t address,
                               std::uint64_t length) {
  for (const Section &s : image.sections())
    if (s.allocated() && s.executable() && s.has_contents() &&
        s.contains(address, length))
      return &s;
  return nullptr;
}

const Section &allocated_section(const Section &s) {
  if (!s.allocated())
    throw InputError("section " + s.name +
                     " is not allocated (SHF_ALLOC): its records would not "
                     "be in memory");
  return s;
}

void scan_definitions(const ElfImage &image, const Section &section,
                      SdtScan &scan) {
  std::span<const std::uint8_t> bytes =
      image.contents(allocated_section(section));
  const std::uint64_t probe_size = 2 * image.address_size();
  std::optional<sdt_format::FramingError> error = sdt_format::walk_definitions(
      bytes, "the section", image.byte_order(),
      [&](std::size_t off, std::size_t size) {
        SdtDefinition def;
        def.index = scan.definitions.size();
        def.address = section.addr + off;
        def.probe =
            sdt_format::self_relative(bytes, off + 4, def.address + 4,
                                      image.address_mask(), image.byte_order());
        def.problem = sdt_format::decode_definition(bytes, off, size, def);
        if (def.valid() &&
            !section_at(image, def.probe, probe_size, &Section::writable))
          def.problem = "probe object " + hex(def.probe) +
                        " is not inside a writable section";
        scan.definitions.push_back(std::move(def));
      });
  // Framing that cannot be decoded is malformed input (sdt_records.h).
  if (error)
    throw InputError(
        section.name + "+" + hex(error->offset) + ": definition record #" +
        std::to_string(scan.definitions.size()) + ": " + error->what);
}

void scan_sites(const ElfImage &image, const Section &section, SdtScan &scan) {
  std::span<const std::uint8_t> bytes =
      image.contents(allocated_section(section));
  if (bytes.size() % kSiteRecordSize != 0)
    throw InputError(section.name + ": size " + std::to_string(bytes.size()) +
                     " is not a multiple of the " +
                     std::to_string(kSiteRecordSize) + "-byte site record");
  for (std::size_t off = 0; off < bytes.size(); off += kSiteRecordSize) {
    SdtSiteRecord r;
    r.index = scan.sites.size();
    r.address = section.addr + off;
    const sdt_format::SiteFields fields = sdt_format::decode_site(
        bytes, off, r.address, image.address_mask(), image.byte_order());
    r.site = fields.site;
    r.target = fields.target;
    r.probe = fields.probe;
    scan.sites.push_back(std::move(r));
  }
}

// Why libxsdt would refuse to patch the site, or "".
std::string site_problem(const ElfImage &image, const ArchDescriptor &arch,
                         const SdtSiteRecord &r) {
  const std::span<const unsigned char> nop = arch.site_encodings[0].nop;
  const Section *code = code_section_at(image, r.site, nop.size());
  if (!code)
    return "site " + hex(r.site) + " is not inside an executable section";
  if (!code_section_at(image, r.target, 1))
    return "target " + hex(r.target) + " is not inside an executable section";
  if (r.target - r.site < nop.size())
    return "target " + hex(r.target) + " lies inside the site " + hex(r.site);
  if (r.site % arch.site_align != 0)
    return "site " + hex(r.site) + " is not " +
           std::to_string(arch.site_align) + "-byte aligned";
  if (nop.size() > kMaxSiteSize)
    return "site size " + std::to_string(nop.size()) + " is too large";
  // The site's instruction set is the one whose NOP it holds (armhf:
  // Thumb-2 or ARM state); the first one's when none matches.
  auto found = image.contents(*code).subspan(
      static_cast<std::size_t>(r.site - code->addr), nop.size());
  const SiteEncoding *encoding = &arch.site_encodings[0];
  unsigned char site_nop[kMaxSiteSize];
  for (const SiteEncoding &e : arch.site_encodings)
    if (arch.takes_jumps(e) &&
        arch.jump_site_nop(e, r.site, r.target, site_nop) &&
        std::equal(found.begin(), found.end(), site_nop,
                   site_nop + nop.size())) {
      encoding = &e;
      break;
    }
  unsigned char encoded[kMaxSiteSize];
  if (!arch.encode_jump_of(*encoding, r.site, r.target, encoded))
    return "target " + hex(r.target) + " is out of the jump's reach from " +
           hex(r.site);
  if (r.definition == SdtSiteRecord::kNoDefinition)
    return "probe " + hex(r.probe) + " is the probe of no valid definition";
  // in reach: checked above
  arch.jump_site_nop(*encoding, r.site, r.target, site_nop);
  if (!std::equal(found.begin(), found.end(), site_nop, site_nop + nop.size()))
    return "site " + hex(r.site) + " holds " +
           hex_bytes(found.data(), found.size()) + ", not the NOP " +
           hex_bytes(site_nop, nop.size());
  return {};
}

// ---- Function symbols
// --------------------------------------------------------

struct Symbol {
  std::uint32_t name = 0;
  unsigned char info = 0;
  std::uint16_t shndx = 0;
  std::uint64_t value = 0, size = 0;
};

Symbol read_symbol(std::span<const std::uint8_t> bytes, std::size_t at,
                   bool is_64, ByteOrder order) {
  auto field = [&](std::size_t offset, unsigned size) {
    return load_uint(bytes, at + offset, size, order);
  };
  Symbol s;
  s.name = static_cast<std::uint32_t>(field(0, 4));
  if (is_64) { // Elf64_Sym: name, info, other, shndx, value, size
    s.info = bytes[at + 4];
    s.shndx = static_cast<std::uint16_t>(field(6, 2));
    s.value = field(8, 8);
    s.size = field(16, 8);
  } else { // Elf32_Sym: name, value, size, info, other, shndx
    s.value = field(4, 4);
    s.size = field(8, 4);
    s.info = bytes[at + 12];
    s.shndx = static_cast<std::uint16_t>(field(14, 2));
  }
  return s;
}

using SymbolMatch = sdt_format::SymbolMatch<std::uint64_t, const Section *>;

// Offers every symbol of `table` to the matches of the wanted addresses.
void match_symbols(const ElfImage &image, const Section &table,
                   const std::vector<std::uint64_t> &sorted,
                   std::vector<SymbolMatch> &matches) {
  const std::size_t entry = image.is_64() ? 24 : 16;
  const Section *strings = nullptr;
  for (const Section &s : image.sections())
    if (s.index == table.link && s.type == SHT_STRTAB)
      strings = &s;
  if (table.entsize != entry || !strings)
    return;
  std::span<const std::uint8_t> bytes = image.contents(table);
  for (std::size_t at = 0; at + entry <= bytes.size(); at += entry) {
    Symbol sym = read_symbol(bytes, at, image.is_64(), image.byte_order());
    sdt_format::offer_symbol(
        sorted, matches, sym.info, sym.shndx,
        image.arch().descriptor().function_start(sym.value), sym.size, strings,
        sym.name);
  }
}

std::string symbol_name(const ElfImage &image, const SymbolMatch &m) {
  std::span<const std::uint8_t> strings = image.contents(*m.strings);
  std::size_t at = m.name;
  std::string name;
  if (!take_string(strings, at, strings.size(), name))
    return {};
  return name;
}

// The function symbol holding each address, as (name, start)
// (sdt_format::functions_holding).
std::vector<std::pair<std::string, std::uint64_t>>
functions_at(const ElfImage &image,
             const std::vector<std::uint64_t> &addresses) {
  return sdt_format::functions_holding<const Section *>(
      addresses,
      [&](std::uint32_t type, const std::vector<std::uint64_t> &sorted,
          std::vector<SymbolMatch> &matches) {
        for (const Section &s : image.sections())
          if (s.type == type)
            match_symbols(image, s, sorted, matches);
      },
      [&](const SymbolMatch &m) { return symbol_name(image, m); });
}

} // namespace

std::string SdtDefinition::label() const {
  return "definition record #" + std::to_string(index) + " at " + hex(address);
}

std::string SdtSiteRecord::label() const {
  return "site record #" + std::to_string(index) + " at " + hex(address);
}

std::string basename_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path
                                                     : path.substr(slash + 1));
}

SdtScan scan_sdt(const ElfImage &image, const std::string &module) {
  SdtScan scan;
  for (const Section &s : image.sections()) {
    if (s.name == kSdtProbesSection) {
      scan.present = true;
      scan_definitions(image, s, scan);
    }
  }
  for (const Section &s : image.sections()) {
    if (s.name == kSdtSitesSection) {
      scan.present = true;
      scan_sites(image, s, scan);
    }
  }
  if (!scan.present)
    return scan;

  // Sites refer to definitions by their probe object.
  std::map<std::uint64_t, std::size_t> by_probe;
  for (SdtDefinition &def : scan.definitions) {
    if (!def.valid())
      continue;
    auto [seen, fresh] = by_probe.emplace(def.probe, def.index);
    if (!fresh)
      def.problem = "probe object " + hex(def.probe) +
                    " already has a definition (record #" +
                    std::to_string(seen->second) + ")";
  }
  const ArchDescriptor &arch = image.arch().descriptor();
  std::vector<std::uint64_t> addresses;
  for (SdtSiteRecord &r : scan.sites) {
    if (auto def = by_probe.find(r.probe); def != by_probe.end())
      r.definition = def->second;
    r.problem = site_problem(image, arch, r);
    addresses.push_back(r.site);
  }
  auto functions = functions_at(image, addresses);
  for (std::size_t i = 0; i < scan.sites.size(); ++i)
    scan.sites[i].function = functions[i].first;

  for (SdtDefinition &def : scan.definitions)
    sdt_format::resolve_id(def, module, [&] {
      sdt_format::CommonFunction common;
      if (def.valid())
        for (std::size_t i = 0; i < scan.sites.size(); ++i)
          if (scan.sites[i].valid() && scan.sites[i].definition == def.index)
            common.add(functions[i].first, functions[i].second);
      return common.name();
    });
  return scan;
}

} // namespace xsdt::inspect
