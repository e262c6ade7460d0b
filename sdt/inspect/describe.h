// How xsdt-inspect shows a decoded argument, as JSON and as one line of text.
#ifndef XSDT_INSPECT_DESCRIBE_H
#define XSDT_INSPECT_DESCRIBE_H

#include "xsdt/argspec.h"

#include <string>
#include <string_view>

namespace xsdt::inspect {

// {"spec": ..., "size": 4, "signed": true, "float": false, "kind": ...,
//  <kind fields>, "portable": bool[, "violation": ...]}
std::string arg_json(const ArgLocation &loc, Arch arch);
// {"spec": ..., "error": ...} for a spec that does not parse.
std::string arg_error_json(std::string_view spec, const ParseError &error);

// "signed 4-byte register eax", "8-byte float memory [rbp - 8]", with
// " [not portable: why]" when outside the portable subset.
std::string arg_text(const ArgLocation &loc, Arch arch);

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_DESCRIBE_H
