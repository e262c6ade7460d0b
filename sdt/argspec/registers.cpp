// Register lookup in the arch's table (its descriptor), and the names of
// arches. The tables themselves are the ports': arches/<arch>/.
#include "xsdt/arch_port.h"
#include "xsdt/argspec.h"

namespace xsdt {

std::optional<RegisterInfo> lookup_register(Arch arch, std::string_view name) {
  for (const RegisterInfo &r : arch.descriptor().registers())
    if (r.name == name)
      return r;
  return std::nullopt;
}

std::string_view arch_name(Arch arch) { return arch.descriptor().name; }

namespace detail {

void add_register(std::vector<RegisterInfo> &table, std::string name,
                  std::string full_name, int dwarf, int bit_offset,
                  int bit_width, RegisterClass cls) {
  table.push_back(RegisterInfo{std::move(name), std::move(full_name), dwarf,
                               bit_offset, bit_width, cls});
}

} // namespace detail
} // namespace xsdt
