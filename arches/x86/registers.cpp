// The legacy x86 registers, shared by x86_64 and i386 (x86.h). Numbers are
// the DWARF register numbers of the x86-64 and i386 psABIs.
#include "x86/x86.h"

#include <array>
#include <string>

namespace xsdt::x86 {

void add_legacy_registers(std::vector<RegisterInfo> &t, int word_bits) {
  struct Legacy {
    const char *stem; // "a" for rax/eax/ax/al/ah, "si" for rsi/esi/si/sil
    int dwarf64, dwarf32;
    bool has_high_byte;
  };
  static constexpr std::array<Legacy, 8> kLegacy{{{"a", 0, 0, true},
                                                  {"d", 1, 2, true},
                                                  {"c", 2, 1, true},
                                                  {"b", 3, 3, true},
                                                  {"si", 4, 6, false},
                                                  {"di", 5, 7, false},
                                                  {"bp", 6, 5, false},
                                                  {"sp", 7, 4, false}}};
  const bool wide = word_bits == 64;
  for (const Legacy &r : kLegacy) {
    std::string stem = r.stem;
    std::string x = r.has_high_byte ? stem + "x" : stem; // ax, si
    std::string full = (wide ? "r" : "e") + x;
    int dwarf = wide ? r.dwarf64 : r.dwarf32;
    detail::add_register(t, full, full, dwarf, 0, word_bits);
    if (wide)
      detail::add_register(t, "e" + x, full, dwarf, 0, 32);
    detail::add_register(t, x, full, dwarf, 0, 16);
    if (r.has_high_byte) {
      detail::add_register(t, stem + "l", full, dwarf, 0, 8);
      detail::add_register(t, stem + "h", full, dwarf, 8, 8);
    } else if (wide) {
      // sil, dil, bpl, spl need a REX prefix: x86-64 only.
      detail::add_register(t, stem + "l", full, dwarf, 0, 8);
    }
  }
}

} // namespace xsdt::x86
