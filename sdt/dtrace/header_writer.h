// The header of `dtrace -h`: per probe the macros that SystemTap's header
// defines (PROVIDER_NAME(args...), PROVIDER_NAME_ENABLED()) and the
// semaphore's declaration, on xsdt's probes.
#ifndef XSDT_DTRACE_HEADER_WRITER_H
#define XSDT_DTRACE_HEADER_WRITER_H

#include "provider.h"

#include <string>

namespace xsdt::dtrace {

// The header's text. `source` is the provider file named in its first
// comment, `output` the header's path (its include guard).
std::string write_header(const ProviderFile &file, const std::string &source,
                         const std::string &output);

// `text` made safe inside a C comment: no "*/".
std::string comment_safe(const std::string &text);

} // namespace xsdt::dtrace

#endif
