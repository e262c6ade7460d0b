// The jump that enables an xsdt SDT site on i386 is x86_64's: the same
// 5-byte NOP replaced whole by `e9 rel32`, whose encoding does not depend on
// the operating mode. The functions live once, in the x86_64 header; this
// one gives them i386's name, so that each arch has its own jump.h.
#ifndef XSDT_ARCH_I386_JUMP_H
#define XSDT_ARCH_I386_JUMP_H

#include "../../x86_64/runtime/jump.h"

namespace xsdt {
namespace arch_i386 = arch_x86_64;
} // namespace xsdt

#endif
