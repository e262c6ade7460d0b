// Probe discovery. .note.stapsdt is not an allocated section (no SHF_ALLOC,
// so no PT_NOTE segment covers it): the notes are only in the file. We find
// each loaded object with dl_iterate_phdr (which also works in static
// binaries), read its section headers and notes from the file on disk with
// plain reads (no libelf on the targets), and relocate the link-time
// addresses with the object's load bias.
#include "internal.h"

#include "xsdt/argspec.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace xsdt::rt {
namespace {

struct Segment {
  std::uintptr_t start = 0, end = 0; // run-time addresses
  int prot = 0;
};

struct LoadedObject {
  std::string name; // dlpi_name as the loader reports it
  std::uintptr_t bias = 0;
  std::vector<Segment> exec_segments;
};

int to_prot(ElfW(Word) flags) {
  return ((flags & PF_R) ? PROT_READ : 0) | ((flags & PF_W) ? PROT_WRITE : 0) |
         ((flags & PF_X) ? PROT_EXEC : 0);
}

int collect(dl_phdr_info *info, std::size_t, void *data) {
  auto *objects = static_cast<std::vector<LoadedObject> *>(data);
  LoadedObject obj;
  obj.name = info->dlpi_name ? info->dlpi_name : "";
  obj.bias = info->dlpi_addr;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
      obj.exec_segments.push_back(Segment{
          info->dlpi_addr + ph.p_vaddr,
          info->dlpi_addr + ph.p_vaddr + ph.p_memsz, to_prot(ph.p_flags)});
  }
  objects->push_back(std::move(obj));
  return 0;
}

class File {
public:
  explicit File(const char *path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {}
  ~File() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  File(const File &) = delete;
  File &operator=(const File &) = delete;
  bool ok() const { return fd_ >= 0; }
  bool read_at(std::uint64_t offset, void *dst, std::size_t n) const {
    auto *p = static_cast<char *>(dst);
    while (n > 0) {
      ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got <= 0)
        return false;
      p += got;
      n -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
    return true;
  }

private:
  int fd_;
};

// Sections are bounded to keep a corrupt file from asking for gigabytes
// (e_shnum is 16 bits; the SHN_XINDEX extension for more sections is not
// supported: such a file is skipped).
constexpr std::size_t kMaxNoteBytes = 64 << 20;

std::string_view c_string(const char *p, const char *end) {
  const void *nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
  if (!nul)
    return {};
  return std::string_view(p, static_cast<const char *>(nul) - p);
}

std::size_t align4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

void read_object(const LoadedObject &obj, std::vector<ProbeSite> &out) {
  // The vdso has no file; a name that cannot be opened is skipped.
  const char *path = obj.name.empty() ? "/proc/self/exe" : obj.name.c_str();
  File file(path);
  if (!file.ok())
    return;
  ElfW(Ehdr) eh;
  if (!file.read_at(0, &eh, sizeof eh) ||
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32))
    return;
  // Without section headers there is nowhere to find the notes.
  if (eh.e_shoff == 0 || eh.e_shnum == 0 ||
      eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shstrndx >= eh.e_shnum)
    return;
  std::vector<ElfW(Shdr)> shdrs(eh.e_shnum);
  if (!file.read_at(eh.e_shoff, shdrs.data(), shdrs.size() * sizeof shdrs[0]))
    return;
  const ElfW(Shdr) &strtab = shdrs[eh.e_shstrndx];
  if (strtab.sh_size > kMaxNoteBytes)
    return;
  std::vector<char> names(strtab.sh_size + 1, '\0');
  if (!file.read_at(strtab.sh_offset, names.data(), strtab.sh_size))
    return;
  auto section_name = [&](const ElfW(Shdr) & sh) -> std::string_view {
    if (sh.sh_name >= strtab.sh_size)
      return {};
    return names.data() + sh.sh_name;
  };

  // The libbpf rule: notes hold link-time addresses relative to the
  // .stapsdt.base they were assembled against; if the file was prelinked
  // or otherwise moved, sh_addr(.stapsdt.base) - base is the shift. Only
  // when the section exists and the note's base is non-zero.
  bool have_base = false;
  std::uint64_t base_addr = 0;
  for (const ElfW(Shdr) & sh : shdrs)
    if (section_name(sh) == ".stapsdt.base") {
      have_base = true;
      base_addr = sh.sh_addr;
    }

  for (const ElfW(Shdr) & sh : shdrs) {
    if (sh.sh_type != SHT_NOTE || section_name(sh) != ".note.stapsdt")
      continue;
    if (sh.sh_size > kMaxNoteBytes)
      continue;
    std::vector<char> data(sh.sh_size);
    if (!file.read_at(sh.sh_offset, data.data(), data.size()))
      continue;
    std::size_t off = 0;
    while (off + sizeof(ElfW(Nhdr)) <= data.size()) {
      ElfW(Nhdr) nh;
      std::memcpy(&nh, data.data() + off, sizeof nh);
      std::size_t name_at = off + sizeof nh;
      std::size_t desc_at = name_at + align4(nh.n_namesz);
      std::size_t next = desc_at + align4(nh.n_descsz);
      if (desc_at > data.size() || next > data.size() || next <= off)
        break;
      off = next;
      if (nh.n_type != 3 || nh.n_namesz != 8 ||
          std::memcmp(data.data() + name_at, "stapsdt", 8) != 0)
        continue;
      constexpr std::size_t kWord = sizeof(ElfW(Addr));
      if (nh.n_descsz < 3 * kWord + 3)
        continue;
      const char *desc = data.data() + desc_at;
      const char *desc_end = desc + nh.n_descsz;
      ElfW(Addr) words[3];
      std::memcpy(words, desc, sizeof words);
      const char *p = desc + 3 * kWord;
      std::string_view provider = c_string(p, desc_end);
      if (provider.data() == nullptr)
        continue;
      p += provider.size() + 1;
      if (p >= desc_end)
        continue;
      std::string_view name = c_string(p, desc_end);
      if (name.data() == nullptr)
        continue;
      p += name.size() + 1;
      if (p >= desc_end)
        continue;
      std::string_view args = c_string(p, desc_end);
      if (args.data() == nullptr)
        continue;

      std::uint64_t shift = 0;
      if (have_base && words[1] != 0)
        shift = base_addr - words[1];
      ProbeSite site;
      site.pc = static_cast<std::uintptr_t>(words[0] + shift + obj.bias);
      site.semaphore =
          words[2] ? static_cast<std::uintptr_t>(words[2] + shift + obj.bias)
                   : 0;
      // Trust the note only if the site is inside executable code of this
      // very object: a stale file on disk would otherwise aim the patch at
      // arbitrary bytes.
      bool in_code = false;
      for (const Segment &seg : obj.exec_segments)
        if (site.pc >= seg.start && site.pc < seg.end) {
          in_code = true;
          site.prot = seg.prot;
        }
      if (!in_code)
        continue;
      site.provider = provider;
      site.name = name;
      site.args = args;
      site.object = obj.name;
      auto specs = split_arg_specs(args);
      site.argc = specs ? static_cast<int>(specs->size()) : -1;
      out.push_back(std::move(site));
    }
  }
}

} // namespace

std::vector<ProbeSite> discover_probes() {
  std::vector<LoadedObject> objects;
  dl_iterate_phdr(collect, &objects);
  std::vector<ProbeSite> sites;
  for (const LoadedObject &obj : objects)
    read_object(obj, sites);
  return sites;
}

} // namespace xsdt::rt
