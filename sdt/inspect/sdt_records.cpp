#include "sdt_records.h"

// The per-arch jump encodings are the pure functions libxsdt patches with,
// so a site this tool accepts is one the runtime can enable.
#include "aarch64/runtime/jump.h"
#include "i386/runtime/jump.h"
#include "riscv64/runtime/jump.h"
#include "x86_64/runtime/jump.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <span>

namespace xsdt::inspect {
namespace {

constexpr std::size_t kDefinitionHeaderSize = 12; // size, probe, 4 bytes
constexpr std::size_t kSiteRecordSize = 12;       // site, target, probe
constexpr unsigned kDefinitionVersion = 1;
constexpr unsigned kMaxArgs = 7;
constexpr unsigned kFlagTranslated = 1, kFlagUntyped = 2;

// What a site of one arch looks like and how it is enabled.
struct JumpSite {
  std::size_t size, align;
  const unsigned char *nop;
  bool (*encode)(std::uint64_t site, std::uint64_t target, unsigned char *out);
};

JumpSite jump_site(Arch arch) {
  switch (arch) {
  case Arch::X86_64:
    return {arch_x86_64::kSiteSize, arch_x86_64::kSiteAlign,
            arch_x86_64::kSiteNop, arch_x86_64::encode_jump};
  case Arch::I386:
    return {arch_i386::kSiteSize, arch_i386::kSiteAlign, arch_i386::kSiteNop,
            arch_i386::encode_jump};
  case Arch::AArch64:
    return {arch_aarch64::kSiteSize, arch_aarch64::kSiteAlign,
            arch_aarch64::kSiteNop, arch_aarch64::encode_jump};
  case Arch::RiscV64:
    return {arch_riscv64::kSiteSize, arch_riscv64::kSiteAlign,
            arch_riscv64::kSiteNop, arch_riscv64::encode_jump};
  }
  throw InputError("no SDT jump encoding for this architecture");
}

// The largest site of any arch, for the buffer encode fills.
constexpr std::size_t kMaxSiteSize = 8;
static_assert(arch_x86_64::kSiteSize <= kMaxSiteSize &&
              arch_i386::kSiteSize <= kMaxSiteSize &&
              arch_aarch64::kSiteSize <= kMaxSiteSize &&
              arch_riscv64::kSiteSize <= kMaxSiteSize);

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

std::uint16_t read_u16(std::span<const std::uint8_t> bytes, std::size_t at) {
  return static_cast<std::uint16_t>(bytes[at] | bytes[at + 1] << 8);
}

// The address a self-relative field designates: its value plus its own
// address, wrapped to the file's address size.
std::uint64_t self_relative(const ElfImage &image,
                            std::span<const std::uint8_t> bytes, std::size_t at,
                            std::uint64_t field_address) {
  auto offset = static_cast<std::int32_t>(read_u32(bytes, at));
  return (field_address +
          static_cast<std::uint64_t>(static_cast<std::int64_t>(offset))) &
         image.address_mask();
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

// The NUL-terminated string at `at`, advancing `at` past the NUL; false
// when no NUL comes before `end`.
bool take_string(std::span<const std::uint8_t> bytes, std::size_t &at,
                 std::size_t end, std::string &out) {
  if (at >= end)
    return false;
  const void *nul = std::memchr(bytes.data() + at, 0, end - at);
  if (!nul)
    return false;
  std::size_t stop = static_cast<std::size_t>(
      static_cast<const std::uint8_t *>(nul) - bytes.data());
  out.assign(reinterpret_cast<const char *>(bytes.data() + at), stop - at);
  at = stop + 1;
  return true;
}

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

// Decodes the fields of a definition whose framing has been checked;
// returns why it is invalid, or "".
std::string decode_definition(std::span<const std::uint8_t> bytes,
                              std::size_t at, std::size_t size,
                              SdtDefinition &def) {
  unsigned version = bytes[at + 8], argc = bytes[at + 9],
           flags = bytes[at + 10], reserved = bytes[at + 11];
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
  def.argc = argc;
  def.flags = flags;

  std::size_t p = at + kDefinitionHeaderSize;
  const std::size_t end = at + size;
  const char *const kWhat[] = {"provider", "module", "function", "name"};
  std::string *const fields[] = {&def.provider, &def.module, &def.function,
                                 &def.name};
  for (std::size_t i = 0; i < 4; ++i)
    if (!take_string(bytes, p, end, *fields[i]))
      return std::string("the ") + kWhat[i] +
             " string is not NUL-terminated within the record's " +
             std::to_string(size) + " bytes";
  if (def.provider.empty() || def.name.empty())
    return "empty provider or name";
  def.native_types.resize(argc);
  def.translated_types.resize(argc);
  for (unsigned i = 0; i < argc; ++i)
    if (!take_string(bytes, p, end, def.native_types[i]) ||
        !take_string(bytes, p, end, def.translated_types[i]))
      return "the types of arg" + std::to_string(i) +
             " are not NUL-terminated within the record's " +
             std::to_string(size) + " bytes (argc " + std::to_string(argc) +
             ")";
  // Only the padding to 4 bytes may follow; more means argc and the
  // strings disagree.
  std::size_t rest = end - p;
  if (rest >= 4 || std::any_of(bytes.begin() + static_cast<std::ptrdiff_t>(p),
                               bytes.begin() + static_cast<std::ptrdiff_t>(end),
                               [](std::uint8_t c) { return c != 0; }))
    return std::to_string(rest) +
           " bytes after the last string where at most 3 zero bytes of "
           "padding belong (argc " +
           std::to_string(argc) + ")";
  return {};
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
  std::size_t off = 0;
  while (off < bytes.size()) {
    std::size_t left = bytes.size() - off;
    std::string where = section.name + "+" + hex(off) +
                        ": definition record #" +
                        std::to_string(scan.definitions.size());
    if (left < 4) {
      if (std::any_of(bytes.begin() + static_cast<std::ptrdiff_t>(off),
                      bytes.end(), [](std::uint8_t c) { return c != 0; }))
        throw InputError(where + ": " + std::to_string(left) +
                         " stray bytes at the end of the section");
      return;
    }
    std::uint32_t size = read_u32(bytes, off);
    if (size == 0) { // zero padding between input sections
      off += 4;
      continue;
    }
    if (size < kDefinitionHeaderSize)
      throw InputError(where + ": size " + std::to_string(size) +
                       " is smaller than the 12-byte header");
    if (size % 4 != 0)
      throw InputError(where + ": size " + std::to_string(size) +
                       " is not a multiple of 4");
    if (size > left)
      throw InputError(where + ": size " + std::to_string(size) +
                       " runs past the end of the section (" +
                       std::to_string(left) + " bytes left)");
    SdtDefinition def;
    def.index = scan.definitions.size();
    def.address = section.addr + off;
    def.probe = self_relative(image, bytes, off + 4, def.address + 4);
    def.problem = decode_definition(bytes, off, size, def);
    if (def.valid() &&
        !section_at(image, def.probe, probe_size, &Section::writable))
      def.problem = "probe object " + hex(def.probe) +
                    " is not inside a writable section";
    scan.definitions.push_back(std::move(def));
    off += size;
  }
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
    r.site = self_relative(image, bytes, off, r.address);
    r.target = self_relative(image, bytes, off + 4, r.address + 4);
    r.probe = self_relative(image, bytes, off + 8, r.address + 8);
    scan.sites.push_back(std::move(r));
  }
}

// Why libxsdt would refuse to patch the site, or "".
std::string site_problem(const ElfImage &image, const JumpSite &jump,
                         const SdtSiteRecord &r) {
  const Section *code = code_section_at(image, r.site, jump.size);
  if (!code)
    return "site " + hex(r.site) + " is not inside an executable section";
  if (!code_section_at(image, r.target, 1))
    return "target " + hex(r.target) + " is not inside an executable section";
  if (r.target - r.site < jump.size)
    return "target " + hex(r.target) + " lies inside the site " + hex(r.site);
  if (r.site % jump.align != 0)
    return "site " + hex(r.site) + " is not " + std::to_string(jump.align) +
           "-byte aligned";
  unsigned char encoded[kMaxSiteSize];
  if (!jump.encode(r.site, r.target, encoded))
    return "target " + hex(r.target) + " is out of the jump's reach from " +
           hex(r.site);
  if (r.definition == SdtSiteRecord::kNoDefinition)
    return "probe " + hex(r.probe) + " is the probe of no valid definition";
  auto found = image.contents(*code).subspan(
      static_cast<std::size_t>(r.site - code->addr), jump.size);
  if (!std::equal(found.begin(), found.end(), jump.nop))
    return "site " + hex(r.site) + " holds " +
           bytes_text(found.data(), found.size()) + ", not the NOP " +
           bytes_text(jump.nop, jump.size);
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
                   bool is_64) {
  Symbol s;
  s.name = read_u32(bytes, at);
  if (is_64) { // Elf64_Sym: name, info, other, shndx, value, size
    s.info = bytes[at + 4];
    s.shndx = read_u16(bytes, at + 6);
    s.value = read_address(bytes, at + 8, 8);
    s.size = read_address(bytes, at + 16, 8);
  } else { // Elf32_Sym: name, value, size, info, other, shndx
    s.value = read_u32(bytes, at + 4);
    s.size = read_u32(bytes, at + 8);
    s.info = bytes[at + 12];
    s.shndx = read_u16(bytes, at + 14);
  }
  return s;
}

struct SymbolMatch {
  bool found = false;
  std::uint64_t start = 0;
  int rank = 0; // binding: global 2, weak 1, local 0
  const Section *strings = nullptr;
  std::uint32_t name = 0;
};

int binding_rank(unsigned char info) {
  switch (ELF64_ST_BIND(info)) { // the same packing in ELF32
  case STB_GLOBAL:
    return 2;
  case STB_WEAK:
    return 1;
  default:
    return 0;
  }
}

// Records, for each wanted address (sorted), the best function symbol of
// `table` holding it: the innermost, then the strongest binding, then the
// first in the table (libxsdt's rule, so both name the same function).
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
    Symbol sym = read_symbol(bytes, at, image.is_64());
    unsigned type = ELF64_ST_TYPE(sym.info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.shndx == SHN_UNDEF ||
        sym.shndx == SHN_ABS || sym.size == 0)
      continue;
    std::uint64_t start = sym.value, end = sym.value + sym.size;
    if (end < start)
      continue;
    int rank = binding_rank(sym.info);
    for (auto it = std::lower_bound(sorted.begin(), sorted.end(), start);
         it != sorted.end() && *it < end; ++it) {
      SymbolMatch &m = matches[static_cast<std::size_t>(it - sorted.begin())];
      if (m.found && (m.start > start || (m.start == start && m.rank >= rank)))
        continue;
      m = SymbolMatch{true, start, rank, strings, sym.name};
    }
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

// The function symbol holding each address (its name and start; "" when
// none): from .symtab, and from .dynsym for the addresses .symtab does not
// cover (a stripped file keeps only .dynsym).
std::vector<std::pair<std::string, std::uint64_t>>
functions_at(const ElfImage &image,
             const std::vector<std::uint64_t> &addresses) {
  std::vector<std::uint64_t> sorted = addresses;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<SymbolMatch> matches(sorted.size());
  for (const Section &s : image.sections())
    if (s.type == SHT_SYMTAB)
      match_symbols(image, s, sorted, matches);
  std::vector<std::uint64_t> missing;
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (!matches[i].found)
      missing.push_back(sorted[i]);
  if (!missing.empty()) {
    std::vector<SymbolMatch> dynamic(missing.size());
    for (const Section &s : image.sections())
      if (s.type == SHT_DYNSYM)
        match_symbols(image, s, missing, dynamic);
    for (std::size_t i = 0, j = 0; i < sorted.size(); ++i)
      if (!matches[i].found)
        matches[i] = dynamic[j++];
  }
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (std::uint64_t address : addresses) {
    const SymbolMatch &m = matches[static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), address) -
        sorted.begin())];
    out.emplace_back(m.found ? symbol_name(image, m) : std::string(), m.start);
  }
  return out;
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
  const JumpSite jump = jump_site(image.arch());
  std::vector<std::uint64_t> addresses;
  for (SdtSiteRecord &r : scan.sites) {
    if (auto def = by_probe.find(r.probe); def != by_probe.end())
      r.definition = def->second;
    r.problem = site_problem(image, jump, r);
    addresses.push_back(r.site);
  }
  auto functions = functions_at(image, addresses);
  for (std::size_t i = 0; i < scan.sites.size(); ++i)
    scan.sites[i].function = functions[i].first;

  for (SdtDefinition &def : scan.definitions) {
    if (def.module.empty())
      def.module = module;
    if (def.function.empty() && def.valid()) {
      // The one function holding every valid site of the probe.
      const std::pair<std::string, std::uint64_t> *common = nullptr;
      bool one = true;
      for (std::size_t i = 0; i < scan.sites.size() && one; ++i) {
        const SdtSiteRecord &r = scan.sites[i];
        if (!r.valid() || r.definition != def.index)
          continue;
        if (functions[i].first.empty())
          one = false;
        else if (!common)
          common = &functions[i];
        else if (*common != functions[i])
          one = false;
      }
      if (one && common)
        def.function = common->first;
    }
    def.name = dashed_name(def.name);
    def.id =
        def.provider + ":" + def.module + ":" + def.function + ":" + def.name;
  }
  return scan;
}

} // namespace xsdt::inspect
