// libxsdt machine-dependent part for armel (ARMv5TE): 32-bit ARM Linux's
// (arches/arm), with this arch's descriptor.
#include "arm/runtime/arm_machdep.h"

extern const xsdt::ArchDescriptor xsdt_arch_armel;

namespace xsdt::rt::machdep {
Arch arch() { return Arch(xsdt_arch_armel); }
} // namespace xsdt::rt::machdep
