#include "describe.h"

#include <cstdint>

namespace xsdt::inspect {
namespace {

// What JSON dumps: ASCII only (ensure_ascii), so that no byte of the
// input reaches the output unescaped unless it is printable ASCII.
std::string dump(const Json &scalar) {
  return scalar.dump(-1, ' ', /*ensure_ascii=*/true);
}

void write_line(const Json &value, std::string &out) {
  if (value.is_object()) {
    out += '{';
    const char *separator = "";
    for (const auto &[key, item] : value.items()) {
      out += separator + dump(key) + ": ";
      write_line(item, out);
      separator = ", ";
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    const char *separator = "";
    for (const Json &item : value) {
      out += separator;
      write_line(item, out);
      separator = ", ";
    }
    out += ']';
  } else {
    out += dump(value);
  }
}

void add_register(Json &obj, const std::string &role, const RegisterInfo &reg) {
  obj[role] = json_text(reg.name);
  obj[role + "_full"] = json_text(reg.full_name);
  obj[role + "_dwarf"] = std::int64_t{reg.dwarf};
  obj[role + "_bit_offset"] = std::int64_t{reg.bit_offset};
  obj[role + "_bit_width"] = std::int64_t{reg.bit_width};
}

std::string address_text(const ArgLocation &loc) {
  std::string out;
  if (loc.base)
    out = loc.base->name;
  if (loc.index) {
    out += (out.empty() ? "" : " + ") + loc.index->name;
    if (loc.scale != 1)
      out += "*" + std::to_string(loc.scale);
  }
  if (loc.has_displacement && (loc.displacement != 0 || out.empty())) {
    if (out.empty())
      out = std::to_string(loc.displacement);
    else if (loc.displacement < 0)
      out += " - " + std::to_string(-(loc.displacement + 1) + 1ULL);
    else
      out += " + " + std::to_string(loc.displacement);
  }
  return "[" + out + "]";
}

} // namespace

Json json_text(std::string_view bytes) {
  std::string utf8;
  utf8.reserve(bytes.size());
  for (char ch : bytes) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      utf8 += ch;
    } else { // U+0080..U+00FF in UTF-8
      utf8 += static_cast<char>(0xc0 | (c >> 6));
      utf8 += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return utf8;
}

std::string json_quote(std::string_view bytes) {
  return dump(json_text(bytes));
}

std::string json_line(const Json &value) {
  std::string out;
  write_line(value, out);
  return out;
}

std::string json_lines(const Json &array) {
  if (array.empty())
    return "[]";
  std::string out = "[\n";
  for (std::size_t i = 0; i < array.size(); ++i)
    out += "  " + json_line(array[i]) + (i + 1 < array.size() ? ",\n" : "\n");
  return out + "]";
}

Json arg_json(const ArgLocation &loc, Arch arch) {
  Json obj = Json::object();
  obj["spec"] = json_text(loc.spec);
  obj["size"] = std::int64_t{loc.size};
  if (!loc.sized)
    obj["sized"] = false; // no SIZE@: the word gdb assumes
  obj["signed"] = loc.is_signed;
  obj["float"] = loc.is_float;
  obj["kind"] = json_text(kind_name(loc.kind));
  switch (loc.kind) {
  case LocationKind::Register:
    add_register(obj, "reg", *loc.base);
    break;
  case LocationKind::Memory:
    if (loc.base)
      add_register(obj, "base", *loc.base);
    if (loc.index) {
      add_register(obj, "index", *loc.index);
      obj["scale"] = std::int64_t{loc.scale};
    }
    obj["displacement"] = loc.displacement;
    break;
  case LocationKind::Immediate:
    obj["value"] = loc.immediate;
    break;
  case LocationKind::Symbolic:
    obj["operand"] = json_text(loc.operand);
    obj["reason"] = json_text(loc.symbolic_reason);
    break;
  }
  auto why = portability_violation(loc, arch);
  obj["portable"] = !why;
  if (why)
    obj["violation"] = json_text(*why);
  return obj;
}

Json arg_error_json(std::string_view spec, const ParseError &error) {
  Json obj = Json::object();
  obj["spec"] = json_text(spec);
  obj["error"] = json_text(error.to_string());
  return obj;
}

std::string arg_text(const ArgLocation &loc, Arch arch) {
  std::string out = loc.is_float ? "" : loc.is_signed ? "signed " : "unsigned ";
  out += std::to_string(loc.size) + "-byte ";
  if (!loc.sized)
    out += "(no size given) ";
  if (loc.is_float)
    out += "float ";
  switch (loc.kind) {
  case LocationKind::Register:
    out += "register " + loc.base->name;
    if (loc.base->name != loc.base->full_name)
      out += " (" + loc.base->full_name + " bits " +
             std::to_string(loc.base->bit_offset) + ".." +
             std::to_string(loc.base->bit_offset + loc.base->bit_width - 1) +
             ")";
    break;
  case LocationKind::Memory:
    out += "memory " + address_text(loc);
    break;
  case LocationKind::Immediate:
    out += "immediate " + std::to_string(loc.immediate);
    break;
  case LocationKind::Symbolic:
    out += "symbolic (" + loc.symbolic_reason + ")";
    break;
  }
  if (auto why = portability_violation(loc, arch))
    out += " [not portable: " + *why + "]";
  return out;
}

} // namespace xsdt::inspect
