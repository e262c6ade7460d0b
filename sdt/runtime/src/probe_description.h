// Private to libxsdt: probe descriptions of fnmatch(3) globs, parsed and
// matched by one rule: DTrace's "[[[provider:]module:]function:]name" for
// xsdt_sdt_enable/xsdt_sdt_disable and the consumer's xsdt_enable_probes,
// and the USDT part's "provider:name" for xsdt_enable/xsdt_disable.
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

// The USDT part's form: "provider:name", both parts non-empty, or "*"
// (every probe). Fills the provider and name of *out (module and function
// match anything). Returns nullptr, or why `text` is not one.
const char *parse_usdt_pattern(const char *text, ProbeDescription *out);

// Whether the description matches every probe (each part empty or "*").
bool matches_everything(const ProbeDescription &d);

// A glob that matches exactly `text`.
std::string glob_literal(std::string_view text);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_PROBE_DESCRIPTION_H
