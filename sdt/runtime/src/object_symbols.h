// Private to libxsdt: the names an object gives its code. The function
// symbol holding an address and the module name of a loaded object, one
// rule for the SDT(9) discovery and the consumer's USDT probes, so that one
// process's SDT and USDT probe ids agree, and agree with what xsdt-inspect
// predicts from the file (both use sdt_format::functions_holding).
#ifndef XSDT_RUNTIME_OBJECT_SYMBOLS_H
#define XSDT_RUNTIME_OBJECT_SYMBOLS_H

#include "elf_file.h"
#include "internal.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::rt {

// The function symbol holding each of `addresses` (run-time addresses of
// the object loaded at `bias` from `file`): .symtab first, .dynsym for the
// addresses it leaves unnamed; the innermost symbol, then the strongest
// binding, then the earlier table entry. {"", 0} where none holds it.
std::vector<SdtFunction>
functions_in_file(const ElfFile &file, std::uintptr_t bias,
                  const std::vector<std::uintptr_t> &addresses);

// The same for addresses anywhere in this process: each object holding
// some of them has its file read once. Unreadable files give "".
std::vector<SdtFunction>
functions_in_process(const std::vector<std::uintptr_t> &addresses);

// The last component of a path.
std::string basename_of(std::string_view path);

// The main program's file, without the " (deleted)" the kernel appends when
// the file was replaced or removed; program_invocation_name if /proc is
// not there.
std::string main_program_path();

// The module of an object (dlpi_name, "" for the main program): its file's
// basename.
std::string module_of(std::string_view object);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_OBJECT_SYMBOLS_H
