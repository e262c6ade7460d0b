#include "json.h"

#include <cstdio>

namespace xsdt::inspect {

std::string json_quote(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20 || c >= 0x7f) {
        // Note strings are bytes, not necessarily UTF-8: escape them all.
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += ch;
      }
    }
  }
  return out + "\"";
}

void JsonObject::key(std::string_view key) {
  if (!body_.empty())
    body_ += ", ";
  body_ += json_quote(key) + ": ";
}

JsonObject &JsonObject::add_string(std::string_view k, std::string_view value) {
  key(k);
  body_ += json_quote(value);
  return *this;
}

JsonObject &JsonObject::add_int(std::string_view k, std::int64_t value) {
  key(k);
  body_ += std::to_string(value);
  return *this;
}

JsonObject &JsonObject::add_bool(std::string_view k, bool value) {
  key(k);
  body_ += value ? "true" : "false";
  return *this;
}

JsonObject &JsonObject::add_raw(std::string_view k, std::string_view json) {
  key(k);
  body_ += json;
  return *this;
}

std::string json_array(const std::vector<std::string> &items) {
  if (items.empty())
    return "[]";
  std::string out = "[\n";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += "  " + items[i] + (i + 1 < items.size() ? ",\n" : "\n");
  return out + "]";
}

std::string json_inline_array(const std::vector<std::string> &items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + items[i];
  return out + "]";
}

} // namespace xsdt::inspect
