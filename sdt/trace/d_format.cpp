// printf-style formats of the D subset (d_format.h).
#include "d_format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace xsdt::trace {

bool parse_format(const std::string &format, std::vector<Conversion> *out,
                  std::string *problem) {
  out->clear();
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    Conversion c;
    c.begin = i++;
    if (i < format.size() && format[i] == '%')
      continue;
    if (i < format.size() && format[i] == '@') {
      c.aggregation = true;
      ++i;
    }
    while (i < format.size() && std::strchr("-+ #0", format[i]))
      c.spec += format[i++];
    while (i < format.size() && format[i] >= '0' && format[i] <= '9')
      c.spec += format[i++];
    if (i < format.size() && format[i] == '.') {
      c.spec += format[i++];
      while (i < format.size() && format[i] >= '0' && format[i] <= '9')
        c.spec += format[i++];
    }
    if (i < format.size() && format[i] == '*') {
      *problem = "'*' widths are not supported";
      return false;
    }
    // Length modifiers: every integer is 64-bit here, so they change
    // nothing (DTrace accepts them the same way).
    while (i < format.size() && std::strchr("hlLqjzt", format[i]))
      ++i;
    if (i >= format.size()) {
      *problem = "the format ends inside a conversion";
      return false;
    }
    c.letter = format[i];
    switch (c.letter) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c':
    case 'p':
      c.wants = Type::Int;
      break;
    case 's':
      c.wants = Type::String;
      break;
    default:
      *problem = std::string("conversion %") + c.letter +
                 " is not supported (integers: %d %i %u %x %X %o %c %p; "
                 "strings: %s)";
      return false;
    }
    if (c.aggregation && c.wants != Type::Int) {
      *problem = "%@ takes an integer conversion (%@d, %@u, %@x)";
      return false;
    }
    c.end = i + 1;
    out->push_back(c);
  }
  return true;
}

namespace {

std::string one(const Conversion &c, const Value &v) {
  char buffer[512];
  std::string spec = "%" + c.spec;
  switch (c.letter) {
  case 'd':
  case 'i':
    std::snprintf(buffer, sizeof buffer, (spec + PRId64).c_str(), v.number);
    break;
  case 'u':
    std::snprintf(buffer, sizeof buffer, (spec + PRIu64).c_str(),
                  static_cast<std::uint64_t>(v.number));
    break;
  case 'x':
    std::snprintf(buffer, sizeof buffer, (spec + PRIx64).c_str(),
                  static_cast<std::uint64_t>(v.number));
    break;
  case 'X':
    std::snprintf(buffer, sizeof buffer, (spec + PRIX64).c_str(),
                  static_cast<std::uint64_t>(v.number));
    break;
  case 'o':
    std::snprintf(buffer, sizeof buffer, (spec + PRIo64).c_str(),
                  static_cast<std::uint64_t>(v.number));
    break;
  case 'c':
    std::snprintf(buffer, sizeof buffer, (spec + "c").c_str(),
                  static_cast<int>(static_cast<unsigned char>(v.number)));
    break;
  case 'p':
    std::snprintf(buffer, sizeof buffer, "0x%" PRIx64,
                  static_cast<std::uint64_t>(v.number));
    break;
  case 's': {
    // The text may be longer than the buffer: pad by hand when it is.
    int n = std::snprintf(buffer, sizeof buffer, (spec + "s").c_str(),
                          v.text.c_str());
    if (n >= static_cast<int>(sizeof buffer))
      return v.text;
    break;
  }
  default:
    return "";
  }
  return buffer;
}

} // namespace

std::string format_values(const std::string &format,
                          const std::vector<Value> &values) {
  std::vector<Conversion> conversions;
  std::string problem;
  if (!parse_format(format, &conversions, &problem))
    return format;
  std::string out;
  std::size_t at = 0, next_value = 0;
  for (const Conversion &c : conversions) {
    for (std::size_t i = at; i < c.begin; ++i) {
      out += format[i];
      if (format[i] == '%' && i + 1 < c.begin && format[i + 1] == '%')
        ++i;
    }
    if (next_value < values.size())
      out += one(c, values[next_value++]);
    at = c.end;
  }
  for (std::size_t i = at; i < format.size(); ++i) {
    out += format[i];
    if (format[i] == '%' && i + 1 < format.size() && format[i + 1] == '%')
      ++i;
  }
  return out;
}

} // namespace xsdt::trace
