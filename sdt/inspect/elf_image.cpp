#include "elf_image.h"

#include "xsdt/arch_registry.h"

#include <gelf.h>
#include <libelf.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace xsdt::inspect {
namespace {

// What a path that is not a regular file is, for the message.
std::string file_kind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "a special file";
}

struct FdCloser {
  int fd;
  ~FdCloser() { ::close(fd); }
};

std::vector<std::uint8_t> read_file(const std::string &path) {
  // O_NONBLOCK: opening a FIFO without a writer would wait for one forever;
  // it is refused below with every file that is not regular (a device such
  // as /dev/zero would never end), as readelf refuses them.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw InputError("cannot open: " + std::string(std::strerror(errno)));
  FdCloser closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0)
    throw InputError("cannot read: " + std::string(std::strerror(errno)));
  if (S_ISDIR(st.st_mode))
    throw InputError("cannot read: " + std::string(std::strerror(EISDIR)));
  if (!S_ISREG(st.st_mode))
    throw InputError("cannot read: " + file_kind(st.st_mode) +
                     ", not a regular file");
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      throw InputError("read error: " + std::string(std::strerror(errno)));
    if (n == 0)
      break;
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  return bytes;
}

// The arch of a file with this machine, class and e_flags; `image`, once
// its sections are read, gives what the descriptors of arches that share
// the machine and class read of them (null: not yet, any of those arches
// stands in until then).
Arch arch_of(std::uint16_t machine, bool is_64, std::uint32_t e_flags,
             const ElfImage *image) {
  SectionBytes section_bytes;
  if (image)
    section_bytes = [image](std::string_view name) {
      const Section *s = image->find(name);
      return s && s->has_contents() ? image->contents(*s)
                                    : std::span<const std::uint8_t>{};
    };
  if (auto arch = arch_for_elf(machine, is_64, e_flags, section_bytes))
    return *arch;
  if (!image)
    for (Arch arch : all_arches())
      if (arch.descriptor().elf_machine == machine &&
          arch.descriptor().elf64 == is_64)
        return arch;
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
  if (b.empty())
    throw InputError("empty file, not an ELF file");
  if (b.size() < SELFMAG || std::memcmp(b.data(), ELFMAG, SELFMAG) != 0)
    throw InputError("not an ELF file");
  if (b.size() < EI_NIDENT)
    throw InputError("truncated ELF header");
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
  // Which arch, by machine and class; where two arches share them, by what
  // their descriptors read of the sections too (after they are read).
  arch_ = arch_of(ehdr.e_machine, is_64_, ehdr.e_flags, nullptr);
  const bool big_endian = byte_order_ == ByteOrder::kBig;
  if (arch_->descriptor().big_endian != big_endian)
    throw InputError(
        std::string(big_endian ? "big" : "little") + "-endian e_machine " +
        std::to_string(ehdr.e_machine) + " is not supported (" +
        std::string(arch_name(*arch_)) + " is " +
        (arch_->descriptor().big_endian ? "big" : "little") + "-endian)");
  elf_type_ = ehdr.e_type;
  // Probes are in objects, executables and shared libraries; a core file's
  // notes are of a process, and other types are no file a compiler wrote.
  if (elf_type_ != ET_REL && elf_type_ != ET_EXEC && elf_type_ != ET_DYN)
    throw InputError(
        "e_type " + std::to_string(elf_type_) +
        (elf_type_ == ET_NONE   ? " (ET_NONE)"
         : elf_type_ == ET_CORE ? " (ET_CORE, a core file)"
                                : "") +
        ": not a relocatable object, an executable or a shared library");

  // Check the section header table against the file before libelf reads it.
  std::size_t shdr_size = is_64_ ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  if (ehdr.e_shoff == 0)
    throw InputError("no section header table (e_shoff 0): the probes' "
                     "sections cannot be found");
  if (ehdr.e_shentsize != shdr_size)
    throw InputError("bad e_shentsize " + std::to_string(ehdr.e_shentsize) +
                     ": ELFCLASS" + (is_64_ ? "64" : "32") +
                     " section headers are " + std::to_string(shdr_size) +
                     " bytes");
  if (!fits(ehdr.e_shoff, shdr_size, bytes_.size()))
    throw InputError("truncated: the section header table lies past the end "
                     "of the file");
  shoff_ = ehdr.e_shoff;
  // The counts from the header itself, not libelf's: elf_memory drops a
  // table that does not fit in the file and then reports no sections at
  // all, which would read as a file without probes. With more sections
  // than the header holds, section 0's sh_size and sh_link hold them.
  std::span<const std::uint8_t> first =
      std::span<const std::uint8_t>(bytes_).subspan(shoff_, shdr_size);
  std::uint64_t count = ehdr.e_shnum;
  if (count == 0)
    count = read_address(first, 8 + 3 * address_size(), address_size(),
                         byte_order_);
  std::uint64_t strndx = ehdr.e_shstrndx;
  if (strndx == SHN_XINDEX)
    strndx = read_u32(first, 8 + 4 * address_size(), byte_order_);
  if (count > (bytes_.size() - shoff_) / shdr_size)
    throw InputError("truncated: " + std::to_string(count) +
                     " section headers do not fit in the file");
  shtable_size_ = count * shdr_size;
  if (strndx == SHN_UNDEF || strndx >= count)
    throw InputError("bad e_shstrndx " + std::to_string(strndx) + " (" +
                     std::to_string(count) +
                     " sections): the sections have no names");
  std::size_t libelf_count = 0, libelf_strndx = 0;
  if (elf_getshdrnum(elf.get(), &libelf_count) != 0 ||
      elf_getshdrstrndx(elf.get(), &libelf_strndx) != 0)
    throw InputError(std::string("bad section headers: ") + elf_errmsg(-1));
  if (libelf_count != count || libelf_strndx != strndx)
    throw InputError("bad section headers: libelf reads " +
                     std::to_string(libelf_count) +
                     " sections, the header says " + std::to_string(count));

  for (Elf_Scn *scn = elf_nextscn(elf.get(), nullptr); scn;
       scn = elf_nextscn(elf.get(), scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr))
      throw InputError(std::string("bad section header: ") + elf_errmsg(-1));
    Section s;
    s.index = elf_ndxscn(scn);
    const char *name = elf_strptr(elf.get(), libelf_strndx, shdr.sh_name);
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
  if (elf_machine_is_shared(*arch_))
    arch_ = arch_of(ehdr.e_machine, is_64_, ehdr.e_flags, this);
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
  check_overlap(s);
  return std::span<const std::uint8_t>(bytes_).subspan(
      static_cast<std::size_t>(s.offset), static_cast<std::size_t>(s.size));
}

// A section's bytes must be its own: where they are also the ELF header's,
// the section header table's or another section's, the file was damaged or
// forged, and reading them would misread those bytes as this section's.
void ElfImage::check_overlap(const Section &s) const {
  auto overlaps = [&s](std::uint64_t offset, std::uint64_t size) {
    // s lies in the file (contents() checked); the other range may not.
    return size != 0 && s.size != 0 && offset < s.offset + s.size &&
           (s.offset < offset || s.offset - offset < size);
  };
  const std::string where = "section " + s.name + " (offset " + hex(s.offset) +
                            ", size " + hex(s.size) + ") overlaps ";
  std::uint64_t ehdr_size = is_64_ ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
  if (overlaps(0, ehdr_size))
    throw InputError(where + "the ELF header");
  if (overlaps(shoff_, shtable_size_))
    throw InputError(where + "the section header table (offset " + hex(shoff_) +
                     ", size " + hex(shtable_size_) + ")");
  for (const Section &other : sections_)
    if (other.index != s.index && other.has_contents() &&
        overlaps(other.offset, other.size))
      throw InputError(where + "section " + other.name + " (offset " +
                       hex(other.offset) + ", size " + hex(other.size) + ")");
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
