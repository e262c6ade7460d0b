// Probe discovery. .note.stapsdt is not an allocated section (no SHF_ALLOC,
// so no PT_NOTE segment covers it): the notes are only in the file. We find
// each loaded object with dl_iterate_phdr (which also works in static
// binaries), read its section headers and notes from the file on disk with
// plain reads (no libelf on the targets), and relocate the link-time
// addresses with the object's load bias.
#include "elf_file.h"
#include "internal.h"

#include "xsdt/argspec.h"

#include <cstring>

namespace xsdt::rt {
namespace {

std::string_view c_string(const char *p, const char *end) {
  const void *nul = std::memchr(p, 0, static_cast<std::size_t>(end - p));
  if (!nul)
    return {};
  return std::string_view(p, static_cast<const char *>(nul) - p);
}

std::size_t align4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

void read_object(const LoadedObject &obj, std::vector<ProbeSite> &out) {
  // The vdso has no file; a name that cannot be opened is skipped, and so
  // is a file without section headers: there is nowhere to find the notes.
  ElfFile file(obj.file_path());
  if (!file.ok())
    return;
  // A file replaced on disk since it was loaded (another build) has notes
  // for other code: none of them is trusted.
  if (!file.mismatch(obj).empty())
    return;
  auto section_name = [&](const ElfW(Shdr) & sh) {
    return file.section_name(sh);
  };
  const std::vector<ElfW(Shdr)> &shdrs = file.sections();

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
    std::vector<char> data;
    if (!file.read_section(sh, data))
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
      const LoadSegment *code = obj.segment_with(site.pc, 1, PROT_EXEC);
      if (!code)
        continue;
      site.prot = code->prot;
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
  std::vector<ProbeSite> sites;
  for (const LoadedObject &obj : loaded_objects())
    read_object(obj, sites);
  return sites;
}

} // namespace xsdt::rt
