// Hexadecimal text for messages about addresses and instruction bytes.
// Dependency-free and header-only: libxsdt's patcher and SDT discovery use
// it, and so does xsdt-inspect (sdt/inspect/sdt_records.cpp), so that both
// describe a site's bytes the same way.
#ifndef XSDT_HEX_TEXT_H
#define XSDT_HEX_TEXT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace xsdt {

// "0x1a2b": lower case, no leading zeros.
inline std::string hex_number(std::uint64_t value) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof text, "0x%llx",
                static_cast<unsigned long long>(value));
  return text;
}

// "0f 1f 44 00 00".
inline std::string hex_bytes(const unsigned char *bytes, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    if (i)
      out += ' ';
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

} // namespace xsdt

#endif // XSDT_HEX_TEXT_H
