// libxsdt: the main program's file (main_program.h).
#include "main_program.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <link.h>
#include <string_view>
#include <unistd.h>

namespace xsdt::rt {
namespace {

// The kernel marks a mapping or an exe link whose file was replaced or
// removed.
std::string without_deleted_mark(std::string path) {
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.size() > kDeleted.size() &&
      path.compare(path.size() - kDeleted.size(), kDeleted.size(), kDeleted) ==
          0)
    path.resize(path.size() - kDeleted.size());
  return path;
}

// The run-time address of the main program's first PT_LOAD segment: the
// first object dl_iterate_phdr reports is the program.
std::uintptr_t first_segment_of_main() {
  std::uintptr_t address = 0;
  dl_iterate_phdr(
      [](dl_phdr_info *info, std::size_t, void *data) -> int {
        for (int i = 0; i < info->dlpi_phnum; ++i)
          if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            *static_cast<std::uintptr_t *>(data) =
                info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            break;
          }
        return 1; // the first object only
      },
      &address);
  return address;
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

std::string exe_link() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return "";
  return without_deleted_mark(std::string(buf, static_cast<std::size_t>(n)));
}

} // namespace

const std::string &main_program_file() {
  static const std::string path = [] {
    std::string mapped = mapped_file(first_segment_of_main());
    return mapped.empty() ? exe_link() : mapped;
  }();
  return path;
}

} // namespace xsdt::rt
