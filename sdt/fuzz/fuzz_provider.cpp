// Fuzzes xsdt-dtrace's provider-file reader: parse_provider_file (lexer and
// parser) on the input as a file, then write_header on what it accepts.
// A malformed file must end in SyntaxError, nothing else escapes (libFuzzer
// reports an uncaught exception as a crash). Without line markers (no `#`
// in the input) the error's location is in the input: its file name, a
// line that exists, a column at most one past that line's end. An accepted
// file keeps the parser's promises: named providers and probes, at most
// max_parameters native parameters, each parameter's type and name taken
// from its declaration.
#include "fuzz_require.h"
#include "header_writer.h"
#include "names.h"
#include "parser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace xsdt::dtrace;

const std::string kFile = "fuzz.d";

void check_location(const Location &loc, std::string_view source) {
  // Line 0 is real after a marker: cpp writes `# 0 "<built-in>"`.
  XSDT_FUZZ_REQUIRE(loc.line >= 0 && loc.column >= 1);
  if (source.find('#') != std::string_view::npos)
    return; // markers move locations anywhere else, by design
  XSDT_FUZZ_REQUIRE(loc.file == kFile && loc.line >= 1);
  std::vector<std::size_t> lengths{0};
  for (char c : source) {
    if (c == '\n')
      lengths.push_back(0);
    else
      ++lengths.back();
  }
  XSDT_FUZZ_REQUIRE(static_cast<std::size_t>(loc.line) <= lengths.size());
  XSDT_FUZZ_REQUIRE(static_cast<std::size_t>(loc.column) <=
                    lengths[static_cast<std::size_t>(loc.line) - 1] + 1);
}

void check_parameters(const std::vector<Parameter> &params,
                      std::string_view source) {
  for (const Parameter &p : params) {
    XSDT_FUZZ_REQUIRE(!p.declaration.empty());
    check_location(p.loc, source);
    // The name is the declaration's, and not part of its type.
    if (!p.name.empty())
      XSDT_FUZZ_REQUIRE(p.declaration.find(p.name) != std::string::npos);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  std::string_view source(reinterpret_cast<const char *>(data), size);
  ProviderFile file;
  try {
    file = parse_provider_file(source, kFile);
  } catch (const SyntaxError &e) {
    check_location(e.location(), source);
    XSDT_FUZZ_REQUIRE(!e.message().empty());
    XSDT_FUZZ_REQUIRE(std::string_view(e.what()).find(e.message()) !=
                      std::string_view::npos);
    // What the header's comments quote passes comment_safe first.
    XSDT_FUZZ_REQUIRE(comment_safe(std::string(source)).find("*/") ==
                      std::string::npos);
    return 0;
  }
  for (const Provider &pv : file.providers) {
    XSDT_FUZZ_REQUIRE(!pv.name.empty());
    check_location(pv.loc, source);
    for (const Probe &pr : pv.probes) {
      XSDT_FUZZ_REQUIRE(!pr.name.empty());
      check_location(pr.loc, source);
      XSDT_FUZZ_REQUIRE(pr.parameters.size() <=
                        static_cast<std::size_t>(max_parameters));
      check_parameters(pr.parameters, source);
      if (pr.translated)
        check_parameters(*pr.translated, source);
    }
  }
  const std::string header = write_header(file, kFile, "fuzz.h");
  // Every probe gets its macro.
  for (const Provider &pv : file.providers)
    for (const Probe &pr : pv.probes)
      XSDT_FUZZ_REQUIRE(header.find(macro_name(pv.name, pr.name)) !=
                        std::string::npos);
  return 0;
}
