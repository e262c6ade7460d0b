// Fuzzes the SDT(9) record decoder (xsdt/sdt_record_format.h), which
// libxsdt and xsdt-inspect share, and the inspector's scan_sdt() over it.
// Input:
//
//   SELECTOR  LEN (2 bytes, little-endian)  PROBES[LEN]  SITES...
//
// PROBES and SITES are the raw contents of xsdt_sdt_probes and
// xsdt_sdt_sites (layout in <xsdt/sdt.h>); LEN is cut to what the input
// holds. SELECTOR picks class and arch as TinyElfOptions does (bits 0..2,
// 5..7); bit 3 puts the function symbols in .dynsym instead of .symtab, bit
// 4 makes xsdt_sdt_sites non-allocated (a malformed file).
//
// Two routes, since each reaches code the other cannot:
//  * the decoders called directly on an exact-size copy of PROBES, in both
//    byte orders (the tiny ELF is little-endian only), checking the framing
//    walk_definitions promises and the fields decode_definition fills;
//  * the sections in a well-formed tiny ELF with .text (the arch's NOPs),
//    writable .data for the probe objects and a symbol table, through
//    scan_sdt: self-relative addresses, site checks against the arch's jump
//    encodings, the function symbol holding each site, resolved ids. It
//    must end in InputError or in records that keep what sdt_records.h
//    says of them.
#include "fuzz_support.h"
#include "sdt_records.h"
#include "tiny_elf.h"
#include "xsdt/sdt_record_format.h"

#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fmt = xsdt::sdt_format;
using xsdt::ByteOrder;

constexpr std::uint64_t kTextAddr = 0x1000, kTextSize = 64;
constexpr std::uint64_t kDataAddr = 0x3000, kDataSize = 64;
constexpr std::uint64_t kProbesAddr = 0x4000, kSitesAddr = 0x5000;

// decode_definition's Definition: the fields it documents, nothing else.
struct Definition {
  unsigned argc = 0, flags = 0;
  std::string provider, module, function, name;
  std::vector<std::string> native_types, translated_types;
};

// The framing and field properties of one byte order's decode; returns
// (offset, problem) per record for comparison with scan_sdt.
std::vector<std::pair<std::size_t, std::string>>
decode_direct(const std::vector<unsigned char> &probes, ByteOrder order) {
  std::vector<std::pair<std::size_t, std::string>> records;
  std::size_t next = 0; // where the next record may start
  fmt::Bytes bytes(probes.data(), probes.size());
  auto error = fmt::walk_definitions(
      bytes, "xsdt_sdt_probes", order, [&](std::size_t off, std::size_t size) {
        // In order, not overlapping, whole, and only zero words skipped.
        XSDT_FUZZ_REQUIRE(off >= next && (off - next) % 4 == 0);
        for (std::size_t i = next; i < off; ++i)
          XSDT_FUZZ_REQUIRE(probes[i] == 0);
        XSDT_FUZZ_REQUIRE(size >= fmt::kDefinitionHeaderSize && size % 4 == 0 &&
                          size <= probes.size() - off);
        XSDT_FUZZ_REQUIRE(fmt::load_u32(bytes, off, order) == size);
        next = off + size;
        Definition def;
        std::string problem = fmt::decode_definition(bytes, off, size, def);
        if (problem.empty()) {
          XSDT_FUZZ_REQUIRE(def.argc <= fmt::kMaxArgs);
          XSDT_FUZZ_REQUIRE(def.argc == probes[off + 9]);
          XSDT_FUZZ_REQUIRE(def.native_types.size() == def.argc &&
                            def.translated_types.size() == def.argc);
          XSDT_FUZZ_REQUIRE(!def.provider.empty() && !def.name.empty());
          // The strings and their NULs fill the record up to its padding.
          std::size_t used = fmt::kDefinitionHeaderSize + 4 +
                             def.provider.size() + def.module.size() +
                             def.function.size() + def.name.size();
          for (unsigned i = 0; i < def.argc; ++i)
            used +=
                def.native_types[i].size() + def.translated_types[i].size() + 2;
          XSDT_FUZZ_REQUIRE(used <= size && size - used < 4);
          for (const std::string *s :
               {&def.provider, &def.module, &def.function, &def.name})
            XSDT_FUZZ_REQUIRE(s->find('\0') == std::string::npos);
          const std::string dashed = fmt::dashed_name(def.name);
          XSDT_FUZZ_REQUIRE(dashed.size() <= def.name.size());
          // Each `__` became `-`, left to right, so none is left.
          XSDT_FUZZ_REQUIRE(dashed.find("__") == std::string::npos);
        }
        records.emplace_back(off, std::move(problem));
      });
  if (error) {
    XSDT_FUZZ_REQUIRE(error->offset >= next && error->offset < probes.size());
    XSDT_FUZZ_REQUIRE(!error->what.empty());
  } else {
    // The walk ended at the end, or with fewer than 4 zero bytes.
    for (std::size_t i = next; i < probes.size(); ++i)
      XSDT_FUZZ_REQUIRE(probes[i] == 0);
  }
  return records;
}

// ---- The tiny ELF around the two sections -----------------------------

constexpr char kNameTable[] = "\0.text\0.data\0.symtab\0.dynsym\0.strtab\0"
                              ".shstrtab\0xsdt_sdt_probes\0xsdt_sdt_sites";
constexpr std::string_view kNames(kNameTable, sizeof kNameTable);

struct Spec {
  std::string_view name;
  std::uint32_t type;
  std::uint64_t flags, addr;
  std::vector<std::uint8_t> bytes;
  std::uint32_t link = 0;
  std::uint64_t entsize = 0;
};

enum : std::uint16_t { kText = 1, kData, kSymbols, kStrtab, kShstrtab };

// Symbols over .text: a global and a weak alias of the same function, a
// local one nested inside it, and a global one after it; the sites that
// the seeds name land in each.
template <class Sym> std::vector<std::uint8_t> symbols(std::string &strings) {
  struct Fn {
    const char *name;
    unsigned char bind;
    std::uint64_t start, size;
  };
  const Fn fns[] = {{"outer", STB_GLOBAL, kTextAddr, 32},
                    {"outer_alias", STB_WEAK, kTextAddr, 32},
                    {"inner", STB_LOCAL, kTextAddr + 8, 8},
                    {"after", STB_GLOBAL, kTextAddr + 32, 32}};
  std::vector<std::uint8_t> out(sizeof(Sym), 0); // index 0: the null symbol
  strings.assign(1, '\0');
  for (const Fn &f : fns) {
    Sym s{};
    s.st_name = static_cast<std::uint32_t>(strings.size());
    strings += f.name;
    strings += '\0';
    s.st_info = static_cast<unsigned char>((f.bind << 4) | STT_FUNC);
    s.st_shndx = kText;
    s.st_value = static_cast<decltype(s.st_value)>(f.start);
    s.st_size = static_cast<decltype(s.st_size)>(f.size);
    xsdt::fuzz::detail::put(out, s);
  }
  return out;
}

// The arch's NOPs at the start of .text: xsdt's own site NOP repeated,
// then the other implementations' ones, then bytes that are no NOP.
std::vector<std::uint8_t> text_for(std::uint16_t machine) {
  std::vector<std::uint8_t> text;
  for (xsdt::Arch arch : xsdt::all_arches()) {
    const xsdt::ArchDescriptor &d = arch.descriptor();
    if (d.elf_machine != machine)
      continue;
    const auto nop = d.site_encodings[0].nop;
    while (text.size() + nop.size() <= kTextSize / 2)
      text.insert(text.end(), nop.begin(), nop.end());
    for (const xsdt::SiteEncoding &other : d.site_encodings.subspan(1))
      text.insert(text.end(), other.nop.begin(), other.nop.end());
    break;
  }
  text.resize(kTextSize, 0xff);
  return text;
}

template <class Ehdr, class Shdr, class Sym>
std::vector<std::uint8_t> build(std::uint16_t machine, unsigned char cls,
                                bool dynsym, bool sites_allocated,
                                const std::vector<std::uint8_t> &probes,
                                const std::vector<std::uint8_t> &sites) {
  std::string strings;
  std::vector<std::uint8_t> syms = symbols<Sym>(strings);
  // In index order (kText...). The sites come last and end the file, so a
  // read past them runs off ElfImage's buffer.
  const std::vector<Spec> specs{
      {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kTextAddr,
       text_for(machine)},
      {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kDataAddr,
       std::vector<std::uint8_t>(kDataSize)},
      {dynsym ? ".dynsym" : ".symtab",
       static_cast<std::uint32_t>(dynsym ? SHT_DYNSYM : SHT_SYMTAB),
       static_cast<std::uint64_t>(dynsym ? SHF_ALLOC : 0), 0, syms, kStrtab,
       sizeof(Sym)},
      {".strtab", SHT_STRTAB, 0, 0, {strings.begin(), strings.end()}},
      {".shstrtab", SHT_STRTAB, 0, 0, {kNames.begin(), kNames.end()}},
      {"xsdt_sdt_probes", SHT_PROGBITS, SHF_ALLOC, kProbesAddr, probes},
      {"xsdt_sdt_sites", SHT_PROGBITS,
       static_cast<std::uint64_t>(sites_allocated ? SHF_ALLOC | SHF_LINK_ORDER
                                                  : SHF_LINK_ORDER),
       kSitesAddr, sites, kText},
  };
  std::vector<Shdr> headers(1);
  std::vector<std::uint8_t> body;
  std::uint64_t offset = sizeof(Ehdr) + (specs.size() + 1) * sizeof(Shdr);
  for (const Spec &s : specs) {
    Shdr h{};
    h.sh_name = static_cast<std::uint32_t>(kNames.find(s.name));
    h.sh_type = s.type;
    h.sh_flags = static_cast<decltype(h.sh_flags)>(s.flags);
    h.sh_addr = static_cast<decltype(h.sh_addr)>(s.addr);
    h.sh_offset = static_cast<decltype(h.sh_offset)>(offset);
    h.sh_size = static_cast<decltype(h.sh_size)>(s.bytes.size());
    h.sh_link = s.link;
    h.sh_addralign = 1;
    h.sh_entsize = static_cast<decltype(h.sh_entsize)>(s.entsize);
    headers.push_back(h);
    body.insert(body.end(), s.bytes.begin(), s.bytes.end());
    offset += s.bytes.size();
  }
  Ehdr e{};
  std::memcpy(e.e_ident, ELFMAG, SELFMAG);
  e.e_ident[EI_CLASS] = cls;
  e.e_ident[EI_DATA] = ELFDATA2LSB;
  e.e_ident[EI_VERSION] = EV_CURRENT;
  e.e_type = ET_DYN;
  e.e_machine = machine;
  e.e_version = EV_CURRENT;
  e.e_shoff = sizeof(Ehdr);
  e.e_ehsize = sizeof(Ehdr);
  e.e_shentsize = sizeof(Shdr);
  e.e_shnum = static_cast<std::uint16_t>(headers.size());
  e.e_shstrndx = kShstrtab;
  std::vector<std::uint8_t> out;
  xsdt::fuzz::detail::put(out, e);
  for (const Shdr &h : headers)
    xsdt::fuzz::detail::put(out, h);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

// The address a self-relative field designates, computed apart from
// sdt_format::self_relative: sign-extend, add, wrap to the address size.
std::uint64_t designated(const std::vector<std::uint8_t> &bytes, std::size_t at,
                         std::uint64_t field_address, bool is_64) {
  std::uint32_t u = 0;
  for (int i = 0; i < 4; ++i)
    u |= std::uint32_t{bytes[at + i]} << (8 * i);
  const std::int64_t offset = static_cast<std::int32_t>(u);
  const std::uint64_t sum = field_address + static_cast<std::uint64_t>(offset);
  return is_64 ? sum : sum & 0xffffffffu;
}

void check_scan(
    const xsdt::inspect::SdtScan &scan, bool is_64,
    const std::vector<std::uint8_t> &probes,
    const std::vector<std::uint8_t> &sites,
    const std::vector<std::pair<std::size_t, std::string>> &direct) {
  using xsdt::inspect::SdtSiteRecord;
  XSDT_FUZZ_REQUIRE(scan.present);
  // The same records as the direct walk, invalid where it found them so
  // (scan_sdt adds reasons of its own: the probe object, duplicates).
  XSDT_FUZZ_REQUIRE(scan.definitions.size() == direct.size());
  for (std::size_t i = 0; i < direct.size(); ++i) {
    const xsdt::inspect::SdtDefinition &def = scan.definitions[i];
    XSDT_FUZZ_REQUIRE(def.index == i);
    XSDT_FUZZ_REQUIRE(def.address == kProbesAddr + direct[i].first);
    XSDT_FUZZ_REQUIRE(def.probe == designated(probes, direct[i].first + 4,
                                              def.address + 4, is_64));
    if (!direct[i].second.empty())
      XSDT_FUZZ_REQUIRE(!def.valid());
    (void)def.label();
    if (!def.valid())
      continue;
    // A valid probe object lies in .data, the one writable section.
    XSDT_FUZZ_REQUIRE(def.probe >= kDataAddr &&
                      def.probe + 2 * (is_64 ? 8 : 4) <= kDataAddr + kDataSize);
    XSDT_FUZZ_REQUIRE(!def.module.empty() && !def.provider.empty() &&
                      !def.name.empty());
    XSDT_FUZZ_REQUIRE(def.id == def.provider + ":" + def.module + ":" +
                                    def.function + ":" + def.name);
    XSDT_FUZZ_REQUIRE(def.native_types.size() == def.argc);
  }
  XSDT_FUZZ_REQUIRE(scan.sites.size() == sites.size() / fmt::kSiteRecordSize);
  for (std::size_t i = 0; i < scan.sites.size(); ++i) {
    const SdtSiteRecord &r = scan.sites[i];
    const std::uint64_t at = i * fmt::kSiteRecordSize;
    XSDT_FUZZ_REQUIRE(r.index == i && r.address == kSitesAddr + at);
    XSDT_FUZZ_REQUIRE(r.site == designated(sites, at, r.address, is_64));
    XSDT_FUZZ_REQUIRE(r.target ==
                      designated(sites, at + 4, r.address + 4, is_64));
    XSDT_FUZZ_REQUIRE(r.probe ==
                      designated(sites, at + 8, r.address + 8, is_64));
    (void)r.label();
    if (r.definition != SdtSiteRecord::kNoDefinition) {
      XSDT_FUZZ_REQUIRE(r.definition < scan.definitions.size());
      XSDT_FUZZ_REQUIRE(scan.definitions[r.definition].probe == r.probe);
    }
    if (!r.valid())
      continue;
    // What libxsdt would patch: a site and a jump target inside .text, the
    // target past the site, and a probe with a valid definition.
    XSDT_FUZZ_REQUIRE(r.site >= kTextAddr && r.site < kTextAddr + kTextSize);
    XSDT_FUZZ_REQUIRE(r.target >= kTextAddr &&
                      r.target < kTextAddr + kTextSize && r.target > r.site);
    XSDT_FUZZ_REQUIRE(r.definition != SdtSiteRecord::kNoDefinition);
    XSDT_FUZZ_REQUIRE(scan.definitions[r.definition].valid());
    // Every site in .text lies in "outer", "inner" or "after"; "inner"
    // (innermost) wins inside it, "outer" (global) over its weak alias.
    const std::uint64_t s = r.site;
    const char *want = s >= kTextAddr + 8 && s < kTextAddr + 16 ? "inner"
                       : s < kTextAddr + 32                     ? "outer"
                                                                : "after";
    XSDT_FUZZ_REQUIRE(r.function == want);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  if (size < 3)
    return 0;
  const std::uint8_t selector = data[0];
  const std::size_t len =
      std::min<std::size_t>(data[1] | (data[2] << 8), size - 3);
  // Exact-size copies: a read past either is a heap-buffer-overflow.
  const std::vector<std::uint8_t> probes(data + 3, data + 3 + len);
  const std::vector<std::uint8_t> sites(data + 3 + len, data + size);

  auto little = decode_direct(probes, ByteOrder::kLittle);
  (void)decode_direct(probes, ByteOrder::kBig);
  for (std::size_t at = 0; at + fmt::kSiteRecordSize <= sites.size();
       at += fmt::kSiteRecordSize) {
    const fmt::SiteFields f =
        fmt::decode_site(fmt::Bytes(sites.data(), sites.size()), at,
                         kSitesAddr + at, 0xffffffffu, ByteOrder::kBig);
    XSDT_FUZZ_REQUIRE(f.site <= 0xffffffffu && f.target <= 0xffffffffu &&
                      f.probe <= 0xffffffffu);
  }

  auto options = xsdt::fuzz::TinyElfOptions::from_selector(selector);
  const bool dynsym = selector & 8, sites_allocated = !(selector & 16);
  std::vector<std::uint8_t> elf =
      options.is_64 ? build<Elf64_Ehdr, Elf64_Shdr, Elf64_Sym>(
                          options.machine, ELFCLASS64, dynsym, sites_allocated,
                          probes, sites)
                    : build<Elf32_Ehdr, Elf32_Shdr, Elf32_Sym>(
                          options.machine, ELFCLASS32, dynsym, sites_allocated,
                          probes, sites);
  static xsdt::fuzz::MemFile file;
  const std::string &path = file.write(elf.data(), elf.size());
  try {
    auto image = xsdt::inspect::ElfImage::load(path);
    auto scan = xsdt::inspect::scan_sdt(image, "fuzz");
    XSDT_FUZZ_REQUIRE(sites_allocated);
    check_scan(scan, image.is_64(), probes, sites, little);
  } catch (const xsdt::inspect::InputError &) {
  }
  // And what xsdt-inspect's check and list do with the file.
  xsdt::fuzz::inspect_file(path);
  return 0;
}
