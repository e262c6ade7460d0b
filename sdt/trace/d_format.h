// printf and printa formats of the D subset: which conversions a format
// has (for the parser's checks) and the text it makes of values.
#ifndef XSDT_TRACE_D_FORMAT_H
#define XSDT_TRACE_D_FORMAT_H

#include "d_program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace xsdt::trace {

// One conversion of a format: %[flags][width][.precision][length]letter,
// or printa's %@d for the aggregation's value.
struct Conversion {
  std::size_t begin = 0, end = 0; // its text in the format
  std::string spec;               // flags, width and precision ("-10", ".3")
  char letter = 'd';
  Type wants = Type::Int;
  bool aggregation = false; // %@...
};

// The conversions of format in order; false and *problem set for a
// conversion the subset does not know (floating point, %n, '*' widths).
bool parse_format(const std::string &format, std::vector<Conversion> *out,
                  std::string *problem);

struct Value {
  Type type = Type::Int;
  std::int64_t number = 0;
  std::string text;
};

// format with each conversion replaced by its value, as C's printf
// would print it (%d signed, %u/%x/%o unsigned 64-bit, %c one byte, %s
// the string, %p 0x-hex). Formats are checked by the parser first:
// values must match parse_format's conversions.
std::string format_values(const std::string &format,
                          const std::vector<Value> &values);

} // namespace xsdt::trace

#endif // XSDT_TRACE_D_FORMAT_H
