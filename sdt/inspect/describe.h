// How xsdt-inspect shows a decoded argument, as JSON and as one line of text,
// and how it lays its JSON out (nlohmann-json builds and escapes the values).
#ifndef XSDT_INSPECT_DESCRIBE_H
#define XSDT_INSPECT_DESCRIBE_H

#include "xsdt/argspec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace xsdt::inspect {

// Objects keep their keys in the order they were added.
using Json = nlohmann::ordered_json;

// A JSON string holding `bytes`, one character per byte (U+0000..U+00FF):
// the strings of an ELF file are bytes, not necessarily UTF-8, and every
// byte outside printable ASCII comes out escaped as \u00XX.
Json json_text(std::string_view bytes);
// json_text(bytes) as a JSON string literal, for text output.
std::string json_quote(std::string_view bytes);

// `value` on one line: {"key": value, "key": value}, [item, item].
std::string json_line(const Json &value);
// An array, one element a line: "[\n  item,\n  item\n]", or "[]".
std::string json_lines(const Json &array);

// {"spec": ..., "size": 4, "signed": true, "float": false, "kind": ...,
//  <kind fields>, "portable": bool[, "violation": ...]}
Json arg_json(const ArgLocation &loc, Arch arch);
// {"spec": ..., "error": ...} for a spec that does not parse.
Json arg_error_json(std::string_view spec, const ParseError &error);

// "signed 4-byte register eax", "8-byte float memory [rbp - 8]", with
// " [not portable: why]" when outside the portable subset.
std::string arg_text(const ArgLocation &loc, Arch arch);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_DESCRIBE_H
