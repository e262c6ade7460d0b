// Probe descriptions (probe_description.h).
#include "probe_description.h"

#include <fnmatch.h>

#include <vector>

namespace xsdt::rt {
namespace {

bool brackets_closed(std::string_view glob) {
  for (std::size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      ++i;
      continue;
    }
    if (glob[i] != '[')
      continue;
    std::size_t j = i + 1;
    if (j < glob.size() && (glob[j] == '!' || glob[j] == '^'))
      ++j;
    if (j < glob.size() && glob[j] == ']') // a leading ']' is a member
      ++j;
    while (j < glob.size() && glob[j] != ']')
      ++j;
    if (j == glob.size())
      return false;
    i = j;
  }
  return true;
}

bool part_matches(const std::string &glob, const std::string &value) {
  return glob.empty() || fnmatch(glob.c_str(), value.c_str(), 0) == 0;
}

// The colon-separated parts of a non-empty text, each a closed glob, into
// *parts; or why not.
const char *split_parts(std::string_view text,
                        std::vector<std::string_view> *parts) {
  for (;;) {
    std::size_t colon = text.find(':');
    parts->push_back(text.substr(0, colon));
    if (colon == std::string_view::npos)
      break;
    text.remove_prefix(colon + 1);
  }
  for (std::string_view part : *parts)
    if (!brackets_closed(part))
      return "an unclosed '[' in a glob";
  return nullptr;
}

} // namespace

bool ProbeDescription::matches(const std::string &provider,
                               const std::string &module,
                               const std::string &function,
                               const std::string &name) const {
  return part_matches(part[0], provider) && part_matches(part[1], module) &&
         part_matches(part[2], function) && part_matches(part[3], name);
}

const char *parse_probe_description(const char *text, ProbeDescription *out) {
  if (!text)
    return "no description (a null pointer)";
  if (!*text)
    return "an empty description (every probe is '*' or ':::')";
  std::vector<std::string_view> parts;
  if (const char *why = split_parts(text, &parts))
    return why;
  if (parts.size() > 4)
    return "more than four colon-separated parts "
           "(provider:module:function:name)";
  const std::size_t first = 4 - parts.size();
  for (std::size_t i = 0; i < parts.size(); ++i)
    out->part[first + i] = std::string(parts[i]);
  return nullptr;
}

const char *parse_usdt_pattern(const char *text, ProbeDescription *out) {
  if (!text)
    return "no pattern (a null pointer)";
  if (std::string_view(text) == "*") {
    *out = ProbeDescription{{"*", "", "", "*"}};
    return nullptr;
  }
  std::vector<std::string_view> parts;
  if (const char *why = split_parts(text, &parts))
    return why;
  if (parts.size() != 2)
    return "not two colon-separated parts";
  if (parts[0].empty() || parts[1].empty())
    return "an empty provider or name (every probe is '*' or '*:*')";
  *out =
      ProbeDescription{{std::string(parts[0]), "", "", std::string(parts[1])}};
  return nullptr;
}

bool matches_everything(const ProbeDescription &d) {
  for (const std::string &part : d.part)
    if (!part.empty() && part != "*")
      return false;
  return true;
}

std::string glob_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

} // namespace xsdt::rt
