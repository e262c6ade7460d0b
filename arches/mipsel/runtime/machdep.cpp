// libxsdt machine-dependent part for mipsel: MIPS Linux's (arches/mips),
// with this arch's descriptor.
#include "mips/runtime/mips_machdep.h"

extern const xsdt::ArchDescriptor xsdt_arch_mipsel;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_mipsel); }
} // namespace xsdt::rt::machdep
