// A minimal little-endian ELF file around a given .note.stapsdt section, so
// the note decoder (reachable only through ElfImage, which reads whole
// files) can be fuzzed on note bytes alone instead of waiting for random
// bytes to form valid ELF headers. make_seeds.py writes the same layout for
// the whole-file fuzzer's seeds.
#ifndef XSDT_FUZZ_TINY_ELF_H
#define XSDT_FUZZ_TINY_ELF_H

#include "xsdt/arch_registry.h"

#include <elf.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace xsdt::fuzz {

// The first input byte: which ELF the notes live in.
struct TinyElfOptions {
  bool is_64 = true;
  std::uint16_t machine = all_arches().front().descriptor().elf_machine;
  bool with_base = true;   // a .stapsdt.base section at kBaseAddr
  bool with_probes = true; // a .probes (semaphore) section at kProbesAddr

  // Bits 1..2 and 5..7 (the high part) pick an arch of the registry (in
  // its order), whatever the class bit says: a class that does not match
  // the machine is an input too.
  static TinyElfOptions from_selector(std::uint8_t selector) {
    std::span<const Arch> arches = all_arches();
    TinyElfOptions o;
    o.is_64 = (selector & 1) != 0;
    const unsigned index = ((selector >> 1) & 3u) | ((selector >> 5) << 2);
    o.machine = arches[index % arches.size()].descriptor().elf_machine;
    o.with_base = (selector & 8) == 0;
    o.with_probes = (selector & 16) == 0;
    return o;
  }
};

inline constexpr std::uint64_t kTextAddr = 0x1000;
inline constexpr std::uint64_t kBaseAddr = 0x2000;
inline constexpr std::uint64_t kProbesAddr = 0x3000;

namespace detail {

// Section name table; a section left out keeps its slot but is renamed, so
// the indices never move.
inline constexpr char kNameTable[] = "\0.text\0.stapsdt.base\0.probes\0"
                                     ".note.stapsdt\0.shstrtab\0.unused";
// With the literal's own final NUL, which ends ".unused".
inline constexpr std::string_view kNames(kNameTable, sizeof kNameTable);
inline std::uint32_t name_at(std::string_view name) {
  return static_cast<std::uint32_t>(kNames.find(name));
}

// Sites at the start of .text: the arch's patch-width NOP twice, then what
// other implementations leave (a short NOP that the site check rejects) or
// a byte that is no NOP, so both verdicts are reachable.
inline std::vector<std::uint8_t> text_bytes(std::uint16_t machine) {
  std::vector<std::uint8_t> text;
  for (Arch arch : all_arches()) {
    const ArchDescriptor &d = arch.descriptor();
    if (d.elf_machine != machine)
      continue;
    for (int i = 0; i < 2; ++i)
      text.insert(text.end(), d.site_encodings[0].nop.begin(),
                  d.site_encodings[0].nop.end());
    for (const SiteEncoding &other : d.site_encodings.subspan(1))
      text.insert(text.end(), other.nop.begin(), other.nop.end());
    break;
  }
  text.resize(16, 0xff);
  return text;
}

inline constexpr std::uint16_t kShstrtabIndex = 4;

struct SectionSpec {
  std::string_view name;
  std::uint32_t type;
  std::uint64_t flags;
  std::uint64_t addr;
  std::vector<std::uint8_t> bytes;
};

template <class T> void put(std::vector<std::uint8_t> &out, const T &value) {
  const auto *p = reinterpret_cast<const std::uint8_t *>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

// Ehdr/Shdr are Elf32_* or Elf64_*; their fields differ only in width.
// File order: ELF header, section headers, then the sections' bytes in
// index order. .note.stapsdt comes last and ends the file, so any read past
// its end runs off the image's buffer, where ASan sees it.
template <class Ehdr, class Shdr>
std::vector<std::uint8_t> layout(const TinyElfOptions &o,
                                 const std::vector<SectionSpec> &sections,
                                 unsigned char elf_class) {
  std::vector<Shdr> headers(1); // index 0: SHN_UNDEF
  std::vector<std::uint8_t> body;
  std::uint64_t offset = sizeof(Ehdr) + (sections.size() + 1) * sizeof(Shdr);
  for (const SectionSpec &s : sections) {
    std::uint64_t align = s.type == SHT_NOTE ? 4 : 1;
    for (; offset % align != 0; ++offset)
      body.push_back(0);
    Shdr h{};
    h.sh_name = name_at(s.name);
    h.sh_type = s.type;
    h.sh_flags = static_cast<decltype(h.sh_flags)>(s.flags);
    h.sh_addr = static_cast<decltype(h.sh_addr)>(s.addr);
    h.sh_offset = static_cast<decltype(h.sh_offset)>(offset);
    h.sh_size = static_cast<decltype(h.sh_size)>(s.bytes.size());
    h.sh_addralign = static_cast<decltype(h.sh_addralign)>(align);
    headers.push_back(h);
    body.insert(body.end(), s.bytes.begin(), s.bytes.end());
    offset += s.bytes.size();
  }

  Ehdr e{};
  std::memcpy(e.e_ident, ELFMAG, SELFMAG);
  e.e_ident[EI_CLASS] = elf_class;
  e.e_ident[EI_DATA] = ELFDATA2LSB;
  e.e_ident[EI_VERSION] = EV_CURRENT;
  e.e_type = ET_DYN;
  e.e_machine = o.machine;
  e.e_version = EV_CURRENT;
  e.e_shoff = sizeof(Ehdr);
  e.e_ehsize = sizeof(Ehdr);
  e.e_shentsize = sizeof(Shdr);
  e.e_shnum = static_cast<std::uint16_t>(headers.size());
  e.e_shstrndx = kShstrtabIndex;

  std::vector<std::uint8_t> out;
  put(out, e);
  for (const Shdr &h : headers)
    put(out, h);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

} // namespace detail

inline std::vector<std::uint8_t> tiny_elf(const TinyElfOptions &o,
                                          std::span<const std::uint8_t> notes) {
  using detail::SectionSpec;
  std::vector<std::uint8_t> one_byte(1), semaphores(8);
  std::vector<std::uint8_t> names(detail::kNames.begin(), detail::kNames.end());
  std::string_view base = o.with_base ? ".stapsdt.base" : ".unused";
  std::string_view probes = o.with_probes ? ".probes" : ".unused";
  std::vector<SectionSpec> sections{
      {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kTextAddr,
       detail::text_bytes(o.machine)},
      {base, SHT_PROGBITS, SHF_ALLOC, kBaseAddr, one_byte},
      {probes, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kProbesAddr, semaphores},
      {".shstrtab", SHT_STRTAB, 0, 0, names},
      {".note.stapsdt", SHT_NOTE, 0, 0, {notes.begin(), notes.end()}},
  };
  return o.is_64
             ? detail::layout<Elf64_Ehdr, Elf64_Shdr>(o, sections, ELFCLASS64)
             : detail::layout<Elf32_Ehdr, Elf32_Shdr>(o, sections, ELFCLASS32);
}

} // namespace xsdt::fuzz

#endif // XSDT_FUZZ_TINY_ELF_H
