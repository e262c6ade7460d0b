// Private to libxsdt: the main program's file where the kernel did not
// start the program itself (main_program.cpp).
#ifndef XSDT_RUNTIME_MAIN_PROGRAM_H
#define XSDT_RUNTIME_MAIN_PROGRAM_H

#include <string>

namespace xsdt::rt {

// Where the kernel started the dynamic loader as the program (`ld.so
// PROG`, how a host runs another arch's programs natively: i386 on
// x86-64), /proc/self/exe is the loader: then the path of the file mapped
// at the program's first loaded segment (/proc/self/maps), found once.
// "" where the kernel started the program itself (a static program, or one
// whose interpreter the kernel loaded: AT_BASE), so that /proc/self/exe
// stays the program's file, as before.
const std::string &loader_started_program_file();

// A path from /proc without the mark the kernel adds to a file that was
// replaced or removed (" (deleted)").
std::string without_deleted_mark(std::string path);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_MAIN_PROGRAM_H
