// libxsdt machine-dependent part for mips64el: MIPS Linux's (arches/mips),
// with this arch's descriptor.
#include "mips/runtime/mips_machdep.h"

extern const xsdt::ArchDescriptor xsdt_arch_mips64el;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_mips64el); }
} // namespace xsdt::rt::machdep
