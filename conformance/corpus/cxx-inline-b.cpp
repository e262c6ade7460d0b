// Second of two translation units that instantiate the inline functions of cxx-inline.h.
#include "cxx-inline.h"

int call_from_b(int x) {
  return shared_inline(x) + static_cast<int>(shared_template<unsigned>(x));
}
