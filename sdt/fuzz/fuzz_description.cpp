// Fuzzes libxsdt's probe descriptions (sdt/runtime/src/probe_description.cpp,
// compiled into this fuzzer alone): parse_probe_description on the input as
// a C string, matches() against the parts of a probe taken from the input
// too, and glob_literal. Input: DESCRIPTION '\n' PROVIDER:MODULE:FUNCTION:NAME
// (the probe part optional). Checks:
//  * an accepted description puts its parts last ("name", "function:name"
//    ...) and leaves the others empty, and matches a probe whose parts are
//    its own parts when those have no glob characters;
//  * glob_literal(x) as a one-part description (and as any part) matches
//    x, and none of a few strings that differ from x by one character.
#include "fuzz_require.h"
#include "probe_description.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using xsdt::rt::ProbeDescription;

bool has_glob(std::string_view s) {
  return s.find_first_of("*?[]\\") != std::string_view::npos;
}

void check_literal(const std::string &x) {
  // A C string: the description ends at the first NUL.
  if (x.find('\0') != std::string::npos)
    return;
  const std::string glob = xsdt::rt::glob_literal(x);
  ProbeDescription d;
  const char *why = xsdt::rt::parse_probe_description(glob.c_str(), &d);
  // glob_literal escapes no ':' (a part separator), so only a colon-free
  // x can be a one-part description.
  if (x.find(':') != std::string::npos || x.empty())
    return;
  XSDT_FUZZ_REQUIRE(why == nullptr);
  XSDT_FUZZ_REQUIRE(d.part[3] == glob);
  XSDT_FUZZ_REQUIRE(d.matches("p", "m", "f", x));
  // As the provider too, where a probe's parts sit left of the name.
  ProbeDescription all;
  for (std::string &part : all.part)
    part = glob;
  XSDT_FUZZ_REQUIRE(all.matches(x, x, x, x));
  // One character changed, dropped or added: no longer x, so no match.
  std::string other = x;
  other[0] = other[0] == 'a' ? 'b' : 'a';
  XSDT_FUZZ_REQUIRE(!d.matches("p", "m", "f", other));
  other = x.substr(1);
  XSDT_FUZZ_REQUIRE(!d.matches("p", "m", "f", other));
  other = x + x.back();
  XSDT_FUZZ_REQUIRE(!d.matches("p", "m", "f", other));
  other = x;
  other.back() = other.back() == '/' ? '.' : '/';
  XSDT_FUZZ_REQUIRE(!d.matches("p", "m", "f", other));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  std::string_view input(reinterpret_cast<const char *>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string text(input.substr(0, newline));
  std::string probe_parts[4];
  if (newline != std::string_view::npos) {
    std::string_view rest = input.substr(newline + 1);
    for (int i = 0; i < 4; ++i) {
      const std::size_t colon = i < 3 ? rest.find(':') : std::string::npos;
      probe_parts[i] = std::string(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view()
                                             : rest.substr(colon + 1);
    }
  }

  ProbeDescription d;
  const char *why = xsdt::rt::parse_probe_description(text.c_str(), &d);
  // The part of text that parse_probe_description sees: up to a NUL.
  const std::string c_text(text.c_str());
  if (why) {
    XSDT_FUZZ_REQUIRE(*why != '\0');
  } else {
    XSDT_FUZZ_REQUIRE(!c_text.empty());
    // The parts, joined back, are the text; the missing ones come first.
    std::size_t colons = 0;
    for (char c : c_text)
      colons += c == ':';
    XSDT_FUZZ_REQUIRE(colons <= 3);
    std::string joined;
    for (std::size_t i = 3 - colons; i < 4; ++i)
      joined += (i > 3 - colons ? ":" : "") + d.part[i];
    XSDT_FUZZ_REQUIRE(joined == c_text);
    for (std::size_t i = 0; i < 3 - colons; ++i)
      XSDT_FUZZ_REQUIRE(d.part[i].empty());
    bool plain = true;
    for (const std::string &p : d.part)
      plain = plain && !has_glob(p);
    // A description without globs names itself (empty parts: anything).
    if (plain)
      XSDT_FUZZ_REQUIRE(d.matches(d.part[0], d.part[1], d.part[2], d.part[3]));
    (void)d.matches(probe_parts[0], probe_parts[1], probe_parts[2],
                    probe_parts[3]);
  }
  check_literal(c_text);
  check_literal(probe_parts[3]);
  return 0;
}
