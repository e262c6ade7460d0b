#include "describe.h"

#include "json.h"

namespace xsdt::inspect {
namespace {

void add_register(JsonObject &obj, std::string_view role,
                  const RegisterInfo &reg) {
  std::string r(role);
  obj.add_string(r, reg.name)
      .add_string(r + "_full", reg.full_name)
      .add_int(r + "_dwarf", reg.dwarf)
      .add_int(r + "_bit_offset", reg.bit_offset)
      .add_int(r + "_bit_width", reg.bit_width);
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

std::string arg_json(const ArgLocation &loc, Arch arch) {
  JsonObject obj;
  obj.add_string("spec", loc.spec)
      .add_int("size", loc.size)
      .add_bool("signed", loc.is_signed)
      .add_bool("float", loc.is_float)
      .add_string("kind", kind_name(loc.kind));
  switch (loc.kind) {
  case LocationKind::Register:
    add_register(obj, "reg", *loc.base);
    break;
  case LocationKind::Memory:
    if (loc.base)
      add_register(obj, "base", *loc.base);
    if (loc.index) {
      add_register(obj, "index", *loc.index);
      obj.add_int("scale", loc.scale);
    }
    obj.add_int("displacement", loc.displacement);
    break;
  case LocationKind::Immediate:
    obj.add_int("value", loc.immediate);
    break;
  case LocationKind::Symbolic:
    obj.add_string("operand", loc.operand)
        .add_string("reason", loc.symbolic_reason);
    break;
  }
  auto why = portability_violation(loc, arch);
  obj.add_bool("portable", !why);
  if (why)
    obj.add_string("violation", *why);
  return obj.str();
}

std::string arg_error_json(std::string_view spec, const ParseError &error) {
  return JsonObject()
      .add_string("spec", spec)
      .add_string("error", error.to_string())
      .str();
}

std::string arg_text(const ArgLocation &loc, Arch arch) {
  std::string out = loc.is_float ? "" : loc.is_signed ? "signed " : "unsigned ";
  out += std::to_string(loc.size) + "-byte ";
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
