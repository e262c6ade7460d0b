#include "elf_image.h"

#include "xsdt/arch_registry.h"

#include <gelf.h>
#include <libelf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace xsdt::inspect {
namespace {

std::vector<std::uint8_t> read_file(const std::string &path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(
      std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file)
    throw InputError("cannot open: " + std::string(std::strerror(errno)));
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[65536];
  std::size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0)
    bytes.insert(bytes.end(), chunk, chunk + n);
  if (std::ferror(file.get()))
    throw InputError("read error: " + std::string(std::strerror(errno)));
  return bytes;
}

Arch arch_of(std::uint16_t machine, bool is_64) {
  if (auto arch = arch_for_elf(machine, is_64))
    return *arch;
  std::string elf_class = is_64 ? "ELFCLASS64" : "ELFCLASS32";
  for (Arch arch : all_arches())
    if (arch.descriptor().elf_machine == machine)
      throw InputError(elf_class + " e_machine " + std::to_string(machine) +
                       " is not supported (" + std::string(arch_name(arch)) +
                       " is ELFCLASS" +
                       (arch.descriptor().elf64 ? "64" : "32") + ")");
  throw InputError("unsupported e_machine " + std::to_string(machine) +
                   " (supported: " + arch_names_text() + ")");
}

struct ElfCloser {
  void operator()(Elf *elf) const { elf_end(elf); }
};

// a + b <= limit without overflow.
bool fits(std::uint64_t a, std::uint64_t b, std::uint64_t limit) {
  return a <= limit && b <= limit - a;
}

} // namespace

bool Section::allocated() const { return (flags & SHF_ALLOC) != 0; }
bool Section::writable() const { return (flags & SHF_WRITE) != 0; }
bool Section::executable() const { return (flags & SHF_EXECINSTR) != 0; }
bool Section::has_contents() const { return type != SHT_NOBITS; }

bool Section::contains(std::uint64_t address, std::uint64_t length) const {
  return address >= addr && address - addr < size &&
         length <= size - (address - addr);
}

ElfImage ElfImage::load(const std::string &path) {
  ElfImage image;
  image.bytes_ = read_file(path);
  const std::vector<std::uint8_t> &b = image.bytes_;
  if (b.size() < EI_NIDENT || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0)
    throw InputError("not an ELF file");
  if (b[EI_CLASS] != ELFCLASS32 && b[EI_CLASS] != ELFCLASS64)
    throw InputError("bad ELF class " + std::to_string(b[EI_CLASS]));
  if (b[EI_DATA] != ELFDATA2LSB && b[EI_DATA] != ELFDATA2MSB)
    throw InputError("bad ELF data encoding " + std::to_string(b[EI_DATA]));
  image.is_64_ = b[EI_CLASS] == ELFCLASS64;
  image.byte_order_ =
      b[EI_DATA] == ELFDATA2MSB ? ByteOrder::kBig : ByteOrder::kLittle;
  std::size_t ehdr_size =
      image.is_64_ ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (b.size() < ehdr_size)
    throw InputError("truncated ELF header");
  image.read_sections();
  return image;
}

void ElfImage::read_sections() {
  if (elf_version(EV_CURRENT) == EV_NONE)
    throw InputError("libelf is out of date");
  std::unique_ptr<Elf, ElfCloser> elf(
      elf_memory(reinterpret_cast<char *>(bytes_.data()), bytes_.size()));
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF)
    throw InputError(std::string("libelf: ") + elf_errmsg(-1));
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(elf.get(), &ehdr))
    throw InputError(std::string("bad ELF header: ") + elf_errmsg(-1));
  arch_ = arch_of(ehdr.e_machine, is_64_);
  const bool big_endian = byte_order_ == ByteOrder::kBig;
  if (arch_->descriptor().big_endian != big_endian)
    throw InputError(
        std::string(big_endian ? "big" : "little") + "-endian e_machine " +
        std::to_string(ehdr.e_machine) + " is not supported (" +
        std::string(arch_name(*arch_)) + " is " +
        (arch_->descriptor().big_endian ? "big" : "little") + "-endian)");
  elf_type_ = ehdr.e_type;

  // Check the section header table against the file before libelf reads it.
  std::size_t shdr_size = is_64_ ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (ehdr.e_shoff == 0)
    throw InputError("no section header table");
  if (ehdr.e_shentsize != shdr_size)
    throw InputError("bad e_shentsize " + std::to_string(ehdr.e_shentsize));
  if (!fits(ehdr.e_shoff, shdr_size, bytes_.size()))
    throw InputError("truncated: the section header table lies past the end "
                     "of the file");
  std::size_t count = 0, strndx = 0;
  if (elf_getshdrnum(elf.get(), &count) != 0 ||
      elf_getshdrstrndx(elf.get(), &strndx) != 0)
    throw InputError(std::string("bad section headers: ") + elf_errmsg(-1));
  if (count > (bytes_.size() - ehdr.e_shoff) / shdr_size)
    throw InputError("truncated: " + std::to_string(count) +
                     " section headers do not fit in the file");

  for (Elf_Scn *scn = elf_nextscn(elf.get(), nullptr); scn;
       scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr))
      throw InputError(std::string("bad section header: ") + elf_errmsg(-1));
    Section s;
    s.index = elf_ndxscn(scn);
    const char *name = elf_strptr(elf.get(), strndx, shdr.sh_name);
    s.name = name ? name : "";
    s.type = shdr.sh_type;
    s.flags = shdr.sh_flags;
    s.addr = shdr.sh_addr;
    s.offset = shdr.sh_offset;
    s.size = shdr.sh_size;
    s.link = shdr.sh_link;
    s.entsize = shdr.sh_entsize;
    sections_.push_back(std::move(s));
  }
}

std::uint64_t ElfImage::address_mask() const {
  return is_64_ ? ~std::uint64_t{0} : std::uint64_t{0xffffffff};
}

const Section *ElfImage::find(std::string_view name) const {
  for (const Section &s : sections_)
    if (s.name == name)
      return &s;
  return nullptr;
}

const Section *ElfImage::section_at(std::uint64_t address) const {
  for (const Section &s : sections_)
    if (s.allocated() && s.contains(address))
      return &s;
  return nullptr;
}

std::span<const std::uint8_t> ElfImage::contents(const Section &s) const {
  if (!s.has_contents())
    throw InputError("section " + s.name + " has no file contents");
  if (!fits(s.offset, s.size, bytes_.size()))
    throw InputError("truncated: section " + s.name + " (offset " +
                     hex(s.offset) + ", size " + hex(s.size) +
                     ") lies past the end of the file");
  return std::span<const std::uint8_t>(bytes_).subspan(
      static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
}

std::uint32_t read_u32(std::span<const std::uint8_t> bytes, std::size_t at,
                       ByteOrder order) {
  return static_cast<std::uint32_t>(load_uint(bytes, at, 4, order));
}

std::uint64_t read_address(std::span<const std::uint8_t> bytes, std::size_t at,
                           unsigned size, ByteOrder order) {
  return load_uint(bytes, at, size, order);
}

std::string hex(std::uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx",
                static_cast<unsigned long long>(value));
  return buf;
}

} // namespace xsdt::inspect
