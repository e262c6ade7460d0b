// Second of two translation units that use the COMDAT functions of comdat-inline.h.
#include "comdat-inline.h"

int from_b(int x) {
  Box<short> box = {static_cast<short>(x * 2)};
  bump_counter(10);
  return inline_header(-x) + static_cast<int>(noinline_header(x + 1)) +
         box.get();
}
