// Function symbols and module names of loaded objects (object_symbols.h).
// The symbol tables come from the object's file on disk, streamed in
// chunks; the choice between symbols is sdt_format's, shared with
// xsdt-inspect.
#include "object_symbols.h"

#include "isa.h"
#include "main_program.h"
#include "xsdt/sdt_record_format.h"

#include <algorithm>
#include <cerrno>
#include <unistd.h>

namespace xsdt::rt {
namespace {

using SymbolMatch = sdt_format::SymbolMatch<std::uintptr_t, const ElfW(Shdr) *>;

// Streams one symbol table into the matches of the wanted addresses.
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
      sdt_format::offer_symbol(
          sorted, matches, sym.st_info, sym.st_shndx,
          static_cast<std::uintptr_t>(
              bias + isa::descriptor().function_start(sym.st_value)),
          static_cast<std::uintptr_t>(sym.st_size), &strings, sym.st_name);
    }
  }
}

} // namespace

std::vector<SdtFunction>
functions_in_file(const ElfFile &file, std::uintptr_t bias,
                  const std::vector<std::uintptr_t> &addresses) {
  auto found = sdt_format::functions_holding<const ElfW(Shdr) *>(
      addresses,
      [&](ElfW(Word) type, const std::vector<std::uintptr_t> &sorted,
          std::vector<SymbolMatch> &matches) {
        for (const ElfW(Shdr) & section : file.sections())
          if (section.sh_type == type)
            match_symbols(file, section, bias, sorted, matches);
      },
      [&](const SymbolMatch &m) {
        return file.read_string(*m.strings, m.name);
      });
  std::vector<SdtFunction> out;
  out.reserve(found.size());
  for (auto &[name, start] : found)
    out.push_back(SdtFunction{std::move(name), start});
  return out;
}

std::vector<SdtFunction>
functions_in_process(const std::vector<std::uintptr_t> &addresses) {
  std::vector<SdtFunction> out(addresses.size());
  std::vector<bool> placed(addresses.size(), false);
  for (const LoadedObject &object : loaded_objects()) {
    std::vector<std::size_t> mine;
    std::vector<std::uintptr_t> wanted;
    for (std::size_t i = 0; i < addresses.size(); ++i)
      if (!placed[i] && object.segment_with(addresses[i], 1, PROT_EXEC)) {
        placed[i] = true;
        mine.push_back(i);
        wanted.push_back(addresses[i]);
      }
    if (mine.empty())
      continue;
    ElfFile file(object.file_path());
    if (!file.ok())
      continue;
    std::vector<SdtFunction> found =
        functions_in_file(file, object.bias, wanted);
    for (std::size_t k = 0; k < mine.size() && k < found.size(); ++k)
      out[mine[k]] = std::move(found[k]);
  }
  return out;
}

std::string basename_of(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path
                                                     : path.substr(slash + 1));
}

std::string main_program_path() {
  if (const std::string &file = loader_started_program_file(); !file.empty())
    return file;
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return program_invocation_name ? program_invocation_name : "";
  return without_deleted_mark(std::string(buf, static_cast<std::size_t>(n)));
}

std::string module_of(std::string_view object) {
  return object.empty() ? basename_of(main_program_path())
                        : basename_of(object);
}

} // namespace xsdt::rt
