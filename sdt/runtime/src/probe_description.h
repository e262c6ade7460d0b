// Private to libxsdt: DTrace probe descriptions, "[[[provider:]module:]
// function:]name" of fnmatch(3) globs, parsed and matched by one rule for
// xsdt_sdt_enable/xsdt_sdt_disable and the consumer's xsdt_enable_probes.
#ifndef XSDT_RUNTIME_PROBE_DESCRIPTION_H
#define XSDT_RUNTIME_PROBE_DESCRIPTION_H

#include <string>
#include <string_view>

namespace xsdt::rt {

struct ProbeDescription {
  // provider, module, function, name; an empty part matches anything.
  std::string part[4];

  bool matches(const std::string &provider, const std::string &module,
               const std::string &function, const std::string &name) const;
};

// Fills *out from `text`; fewer parts name the last ones ("name",
// "function:name", ...). Returns nullptr, or why `text` is not a
// description: null, "" (everything is spelled "*" or ":::"), more than
// four parts, or an unclosed '[' (fnmatch would take it literally, so it is
// a typo rather than a glob).
const char *parse_probe_description(const char *text, ProbeDescription *out);

// A glob that matches exactly `text`.
std::string glob_literal(std::string_view text);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_PROBE_DESCRIPTION_H
