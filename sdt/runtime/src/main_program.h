// Private to libxsdt: the main program's file (main_program.cpp).
#ifndef XSDT_RUNTIME_MAIN_PROGRAM_H
#define XSDT_RUNTIME_MAIN_PROGRAM_H

#include <string>

namespace xsdt::rt {

// The path of the main program's file, found once: the file mapped at the
// program's first loaded segment (/proc/self/maps), which is
// /proc/self/exe's unless the kernel started the dynamic loader itself
// (`ld.so PROG`, how a host runs another arch's programs natively: i386
// on x86-64), where /proc/self/exe is the loader. /proc/self/exe's target
// where the maps say nothing (no /proc); "" where neither does.
const std::string &main_program_file();

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_MAIN_PROGRAM_H
