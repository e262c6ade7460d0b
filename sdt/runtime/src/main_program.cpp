// libxsdt: the main program's file (main_program.h).
#include "main_program.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <link.h>
#include <string_view>
#include <sys/auxv.h>

namespace xsdt::rt {
namespace {

// The main program's headers and first PT_LOAD segment, as the loader
// reports them: the first object of dl_iterate_phdr is the program.
struct MainObject {
  bool has_interpreter = false; // a PT_INTERP: the kernel runs it through one
  std::uintptr_t first_segment = 0;
};
MainObject main_object() {
  MainObject main;
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) -> int {
        auto *m = static_cast<MainObject *>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto &ph = info->dlpi_phdr[i];
          m->has_interpreter = m->has_interpreter || ph.p_type == PT_INTERP;
          if (ph.p_type == PT_LOAD && m->first_segment == 0)
            m->first_segment = info->dlpi_addr + ph.p_vaddr;
        }
        return 1; // the first object only
      },
      &main);
  return main;
}

// The file of the mapping that holds `address`, from /proc/self/maps.
std::string mapped_file(std::uintptr_t address) {
  std::FILE *maps = std::fopen("/proc/self/maps", "re");
  if (!maps)
    return "";
  std::string found;
  char line[4096 + 128];
  while (std::fgets(line, sizeof line, maps)) {
    std::uintmax_t start = 0, end = 0;
    int path_at = 0;
    if (std::sscanf(line, "%jx-%jx %*s %*s %*s %*s %n", &start, &end,
                    &path_at) < 2 ||
        path_at == 0)
      continue;
    if (address < start || address >= end)
      continue;
    std::string path = line + path_at;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' '))
      path.pop_back();
    if (!path.empty() && path[0] == '/')
      found = without_deleted_mark(path);
    break;
  }
  std::fclose(maps);
  return found;
}

} // namespace

std::string without_deleted_mark(std::string path) {
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.size() > kDeleted.size() &&
      path.compare(path.size() - kDeleted.size(), kDeleted.size(), kDeleted) ==
          0)
    path.resize(path.size() - kDeleted.size());
  return path;
}

const std::string &loader_started_program_file() {
  static const std::string path = [] {
    // A program with an interpreter that the kernel started gets the
    // interpreter's address as AT_BASE; started as `ld.so PROG`, the
    // kernel ran no interpreter (AT_BASE 0). Static programs have none.
    const MainObject main = main_object();
    if (!main.has_interpreter || getauxval(AT_BASE) != 0)
      return std::string(); // the kernel started the program itself
    return mapped_file(main.first_segment);
  }();
  return path;
}

} // namespace xsdt::rt
