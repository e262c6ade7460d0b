// First of two translation units that use the COMDAT functions of comdat-inline.h.
#include "comdat-inline.h"

int from_a(int x) {
  Box<short> box = {static_cast<short>(-x)};
  bump_counter(1);
  return inline_header(x) + static_cast<int>(noinline_header(x)) + box.get();
}
