// The names that SystemTap's dtrace derives from a provider and a probe,
// and from the files it reads and writes.
#ifndef XSDT_DTRACE_NAMES_H
#define XSDT_DTRACE_NAMES_H

#include <string>
#include <string_view>

namespace xsdt::dtrace {

// PROVIDER_NAME: the provider upper-cased, "_", then the probe name with
// each "__" (left to right, not overlapping) replaced by "_", upper-cased:
// (httpd, request__start) -> HTTPD_REQUEST_START.
std::string macro_name(std::string_view provider, std::string_view probe);

// <provider>_<probe>_semaphore, the probe name keeping its "__".
std::string semaphore_name(std::string_view provider, std::string_view probe);

// The header's include guard: XSDT_DTRACE_ and the output file's base name
// with every character other than a letter or digit as "_", upper-cased.
std::string include_guard(std::string_view output_path);

// The output name when -o is not given: the provider file's base name
// without its extension (as Python's os.path.splitext drops it), plus
// `suffix` (".h" or ".o"), in the current directory.
std::string default_output(std::string_view provider_file,
                           std::string_view suffix);

// The last component of a path ("a/b.d" -> "b.d", "b.d" -> "b.d").
std::string_view base_name(std::string_view path);

} // namespace xsdt::dtrace

#endif
