// Just enough JSON output for xsdt-inspect: flat objects built field by field.
#ifndef XSDT_INSPECT_JSON_H
#define XSDT_INSPECT_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt::inspect {

std::string json_quote(std::string_view text);

class JsonObject {
public:
  JsonObject &add_string(std::string_view key, std::string_view value);
  JsonObject &add_int(std::string_view key, std::int64_t value);
  JsonObject &add_bool(std::string_view key, bool value);
  JsonObject &add_raw(std::string_view key, std::string_view json);
  std::string str() const { return "{" + body_ + "}"; }

private:
  void key(std::string_view key);
  std::string body_;
};

// "[]", or one item a line: "[\n  item,\n  item\n]".
std::string json_array(const std::vector<std::string> &items);
// "[item, item]" on one line.
std::string json_inline_array(const std::vector<std::string> &items);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_JSON_H
