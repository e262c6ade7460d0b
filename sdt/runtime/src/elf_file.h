// Private to libxsdt: the loaded objects of this process and their ELF files,
// shared by the stapsdt discovery (discover.cpp) and the SDT(9) discovery
// (sdt_discover.cpp). The targets have no libelf, so the files are read with
// plain pread into the ElfW types of the process's own ELF class; every
// offset and size taken from a file is bounded before it is used.
#ifndef XSDT_RUNTIME_ELF_FILE_H
#define XSDT_RUNTIME_ELF_FILE_H

#include "main_program.h"

#include <cerrno>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::rt {

// One piece of a PT_LOAD segment at run time. The PT_GNU_RELRO part of a
// writable segment is a piece of its own without PROT_WRITE, since the
// loader makes it read-only after relocation.
struct LoadSegment {
  std::uintptr_t start = 0, end = 0;
  int prot = 0; // PROT_* from p_flags

  bool contains(std::uintptr_t address, std::size_t length) const {
    return address >= start && address < end && length <= end - address;
  }
};

struct LoadedObject {
  std::string name; // dlpi_name as the loader reports it; "" for the program
  std::uintptr_t bias = 0;
  std::vector<LoadSegment> segments;
  // What the file on disk must match to be this object's (see
  // file_mismatch): the PT_LOAD headers as loaded, and the NT_GNU_BUILD_ID
  // note's bytes from the mapped PT_NOTE segments ("" if none).
  std::vector<ElfW(Phdr)> loads;
  std::string build_id;

  // The file to read: the main program's is reachable as /proc/self/exe
  // (QEMU user mode emulates it) unless the loader was started as the
  // program (main_program.h), a shared object's by its dlpi_name.
  const char *file_path() const {
    if (!name.empty())
      return name.c_str();
    const std::string &main = loader_started_program_file();
    return main.empty() ? "/proc/self/exe" : main.c_str();
  }

  // The piece holding all of [address, address + length) with every bit of
  // `prot`, or nullptr.
  const LoadSegment *segment_with(std::uintptr_t address, std::size_t length,
                                  int prot) const {
    for (const LoadSegment &segment : segments)
      if ((segment.prot & prot) == prot && segment.contains(address, length))
        return &segment;
    return nullptr;
  }

  // Whether [address, address + length) is readable memory of this object,
  // possibly across adjacent pieces (a section next to the RELRO boundary).
  bool readable(std::uintptr_t address, std::size_t length) const {
    while (length > 0) {
      const LoadSegment *piece = segment_with(address, 1, PROT_READ);
      if (!piece)
        return false;
      std::size_t here = piece->end - address;
      if (here >= length)
        return true;
      address += here;
      length -= here;
    }
    return true;
  }
};

inline int prot_from_flags(ElfW(Word) flags) {
  return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
         ((flags & PF_X) ? PROT_EXEC : 0);
}

namespace detail {

// The descriptor of the first NT_GNU_BUILD_ID note in [p, p + size), notes
// padded to `align` (4, or 8 for a PT_NOTE aligned to 8), or "".
inline std::string find_build_id(const char *p, std::size_t size,
                                 std::size_t align) {
  auto pad = [align](std::size_t n) { return (n + align - 1) & ~(align - 1); };
  std::size_t off = 0;
  while (size - off >= sizeof(ElfW(Nhdr))) {
    ElfW(Nhdr) nh;
    std::memcpy(&nh, p + off, sizeof nh);
    std::size_t name_at = off + sizeof nh;
    if (nh.n_namesz > size - name_at)
      break;
    std::size_t desc_at = name_at + pad(nh.n_namesz);
    if (desc_at > size || nh.n_descsz > size - desc_at)
      break;
    if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
        std::memcmp(p + name_at, "GNU", 4) == 0)
      return std::string(p + desc_at, nh.n_descsz);
    std::size_t next = desc_at + pad(nh.n_descsz);
    if (next <= off || next > size)
      break;
    off = next;
  }
  return {};
}

// Appends the PT_LOAD [start, end), split around the RELRO range.
inline void add_load_segment(LoadedObject &object, std::uintptr_t start,
                             std::uintptr_t end, int prot,
                             std::uintptr_t relro_start,
                             std::uintptr_t relro_end) {
  std::uintptr_t lo = relro_start > start ? relro_start : start;
  std::uintptr_t hi = relro_end < end ? relro_end : end;
  if (!(prot & PROT_WRITE) || lo >= hi) {
    object.segments.push_back(LoadSegment{start, end, prot});
    return;
  }
  if (start < lo)
    object.segments.push_back(LoadSegment{start, lo, prot});
  object.segments.push_back(LoadSegment{lo, hi, prot & ~PROT_WRITE});
  if (hi < end)
    object.segments.push_back(LoadSegment{hi, end, prot});
}

// What dl_iterate_phdr collects. No exception may leave its callback: it
// would unwind through glibc's dl_iterate_phdr, which holds the loader's
// lock (and, out of memory, cannot even load the unwinder).
struct LoadedObjects {
  std::vector<LoadedObject> objects;
  bool out_of_memory = false;
};

inline void collect_one(dl_phdr_info *info,
                        std::vector<LoadedObject> *objects) {
  LoadedObject object;
  object.name = info->dlpi_name ? info->dlpi_name : "";
  object.bias = info->dlpi_addr;
  std::uintptr_t relro_start = 0, relro_end = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro_start = info->dlpi_addr + ph.p_vaddr;
      relro_end = relro_start + ph.p_memsz;
    }
  }
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
      continue;
    std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    add_load_segment(object, start, start + ph.p_memsz,
                     prot_from_flags(ph.p_flags), relro_start, relro_end);
    object.loads.push_back(ph);
  }
  // PT_NOTE is mapped: the build id as loaded, read only inside the
  // object's readable memory.
  for (ElfW(Half) i = 0; i < info->dlpi_phnum && object.build_id.empty(); ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_NOTE && object.readable(start, ph.p_memsz))
      object.build_id = find_build_id(reinterpret_cast<const char *>(start),
                                      ph.p_memsz, ph.p_align == 8 ? 8 : 4);
  }
  objects->push_back(std::move(object));
}

inline int collect_loaded_object(dl_phdr_info *info, std::size_t, void *data) {
  auto *collected = static_cast<LoadedObjects *>(data);
  try {
    collect_one(info, &collected->objects);
  } catch (const std::bad_alloc &) {
    collected->out_of_memory = true;
    return 1; // stop; loaded_objects() throws it again
  }
  return 0;
}

} // namespace detail

// The main program and every loaded shared object (dl_iterate_phdr works in
// static binaries too). The vdso is included; its file cannot be opened.
inline std::vector<LoadedObject> loaded_objects() {
  detail::LoadedObjects collected;
  dl_iterate_phdr(detail::collect_loaded_object, &collected);
  if (collected.out_of_memory)
    throw std::bad_alloc();
  return std::move(collected.objects);
}

// Sections are bounded to keep a corrupt file from asking for gigabytes.
inline constexpr std::size_t kMaxSectionBytes = 64 << 20;

// An object's file: its header and section headers, read once. Files of
// the other ELF class, without section headers, or using the SHN_XINDEX
// extension for more sections (e_shnum is 16 bits) are not usable.
class ElfFile {
public:
  explicit ElfFile(const char *path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {
    if (fd_ >= 0)
      ok_ = read_headers();
    else
      open_errno_ = errno;
  }
  ~ElfFile() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  ElfFile(const ElfFile &) = delete;
  ElfFile &operator=(const ElfFile &) = delete;

  bool ok() const { return ok_; }
  // The errno of a failed open, or 0 (the file opened).
  int open_errno() const { return open_errno_; }
  // The errno of the last pread that failed (not one that read too
  // little), or 0.
  int read_errno() const { return read_errno_; }
  const std::vector<ElfW(Shdr)> &sections() const { return sections_; }

  std::string_view section_name(const ElfW(Shdr) & section) const {
    if (section.sh_name >= names_.size())
      return {};
    return names_.data() + section.sh_name; // names_ ends with a NUL
  }

  // The first section of this name, or nullptr.
  const ElfW(Shdr) * find(std::string_view name) const {
    for (const ElfW(Shdr) & section : sections_)
      if (section_name(section) == name)
        return &section;
    return nullptr;
  }

  bool read_at(std::uint64_t offset, void *dst, std::size_t n) const {
    auto *p = static_cast<char *>(dst);
    while (n > 0) {
      ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got < 0)
        read_errno_ = errno;
      if (got <= 0)
        return false;
      p += got;
      n -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
    return true;
  }

  // A section's bytes from the file: false for SHT_NOBITS, sections larger
  // than kMaxSectionBytes and read errors.
  bool read_section(const ElfW(Shdr) & section, std::vector<char> &out) const {
    if (section.sh_type == SHT_NOBITS || section.sh_size > kMaxSectionBytes)
      return false;
    out.resize(section.sh_size);
    return read_at(section.sh_offset, out.data(), out.size());
  }

  // The NUL-terminated string at `offset` of a string table section, read
  // in small pieces (a symbol table's strings can be megabytes; one name is
  // all that is needed). Empty when it is out of bounds or unterminated
  // within max_length.
  std::string read_string(const ElfW(Shdr) & table, std::uint64_t offset,
                          std::size_t max_length = 65536) const {
    std::string out;
    char chunk[256];
    while (offset < table.sh_size && out.size() < max_length) {
      std::size_t n = sizeof chunk;
      if (n > table.sh_size - offset)
        n = static_cast<std::size_t>(table.sh_size - offset);
      if (!read_at(table.sh_offset + offset, chunk, n))
        return {};
      const void *nul = std::memchr(chunk, 0, n);
      if (nul) {
        out.append(chunk, static_cast<const char *>(nul) - chunk);
        return out;
      }
      out.append(chunk, n);
      offset += n;
    }
    return {};
  }

  // Why this file is not the loaded object (the file was replaced on disk
  // after it was loaded), or "": its PT_LOAD headers must be the loaded
  // ones, and its build id the one in memory (a rebuild with the same
  // layout but other code has the same headers).
  std::string mismatch(const LoadedObject &object) const {
    std::vector<ElfW(Phdr)> loads;
    std::string build_id;
    for (const ElfW(Phdr) & ph : phdrs_) {
      if (ph.p_type == PT_LOAD && ph.p_memsz != 0)
        loads.push_back(ph);
      if (ph.p_type == PT_NOTE && build_id.empty() && ph.p_filesz <= 65536) {
        std::vector<char> notes(ph.p_filesz);
        if (read_at(ph.p_offset, notes.data(), notes.size()))
          build_id = detail::find_build_id(notes.data(), notes.size(),
                                           ph.p_align == 8 ? 8 : 4);
      }
    }
    bool same_loads = loads.size() == object.loads.size();
    for (std::size_t i = 0; same_loads && i < loads.size(); ++i) {
      const ElfW(Phdr) &a = loads[i], &b = object.loads[i];
      same_loads = a.p_vaddr == b.p_vaddr && a.p_memsz == b.p_memsz &&
                   a.p_offset == b.p_offset && a.p_filesz == b.p_filesz &&
                   a.p_flags == b.p_flags;
    }
    if (!same_loads)
      return "its PT_LOAD segments are not the loaded ones";
    if (build_id != object.build_id)
      return "its build id is " + hex_id(build_id) + ", the loaded one's " +
             hex_id(object.build_id);
    return {};
  }

private:
  static std::string hex_id(const std::string &id) {
    if (id.empty())
      return "none";
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : id) {
      out += digits[c >> 4];
      out += digits[c & 15];
    }
    return out;
  }

  bool read_headers() {
    ElfW(Ehdr) eh;
    if (!read_at(0, &eh, sizeof eh) ||
        std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
      return false;
    // The program headers, to tell whether this file is the loaded object.
    if (eh.e_phentsize == sizeof(ElfW(Phdr)) && eh.e_phnum > 0 &&
        eh.e_phnum < PN_XNUM) {
      phdrs_.resize(eh.e_phnum);
      if (!read_at(eh.e_phoff, phdrs_.data(), phdrs_.size() * sizeof phdrs_[0]))
        phdrs_.clear();
    }
    if (eh.e_shoff == 0 || eh.e_shnum == 0 ||
        eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shstrndx >= eh.e_shnum)
      return false;
    sections_.resize(eh.e_shnum);
    if (!read_at(eh.e_shoff, sections_.data(),
                 sections_.size() * sizeof sections_[0]))
      return false;
    const ElfW(Shdr) &strtab = sections_[eh.e_shstrndx];
    if (strtab.sh_size > kMaxSectionBytes)
      return false;
    names_.assign(strtab.sh_size + 1, '\0');
    return read_at(strtab.sh_offset, names_.data(), strtab.sh_size);
  }

  int fd_;
  bool ok_ = false;
  int open_errno_ = 0;
  mutable int read_errno_ = 0;
  std::vector<ElfW(Phdr)> phdrs_;
  std::vector<ElfW(Shdr)> sections_;
  std::vector<char> names_; // the section name string table, NUL-terminated
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_ELF_FILE_H
