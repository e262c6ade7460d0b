// The object of `dtrace -G`: on Linux it only defines every probe's
// semaphore (the notes are emitted where the probes are). Generated as a
// self-contained C file and compiled with the target's compiler.
#ifndef XSDT_DTRACE_OBJECT_WRITER_H
#define XSDT_DTRACE_OBJECT_WRITER_H

#include "provider.h"

#include <string>
#include <vector>

namespace xsdt::dtrace {

// The C file: one definition per probe, as XSDT_SEMAPHORE defines it:
//   __attribute__((visibility("hidden"), section(".probes"), used))
//   volatile unsigned short <provider>_<probe>_semaphore = 0;
std::string write_semaphores(const ProviderFile &file,
                             const std::string &source);

// The compiler command: $CC (default "cc") and $CFLAGS, each split into
// shell words, then `preprocessor_options` (-D, -U, -I as given), then
// -fPIC -c `c_file` -o `object`. Throws std::invalid_argument on a
// malformed $CC or $CFLAGS.
std::vector<std::string>
compile_command(const char *cc, const char *cflags,
                const std::vector<std::string> &preprocessor_options,
                const std::string &c_file, const std::string &object);

} // namespace xsdt::dtrace

#endif
