// Private to libxsdt: the instruction-set facts of the arch it is built
// for, read from that arch's descriptor (xsdt/arch_port.h,
// arches/<arch>/descriptor.cpp), under the names the patcher, the trap
// handler and the SDT part use. Constant-initialized data: safe to read in
// signal context.
#ifndef XSDT_RUNTIME_ISA_H
#define XSDT_RUNTIME_ISA_H

#include "machdep.h"
#include "xsdt/arch_port.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace xsdt::rt::isa {

inline const ArchDescriptor &descriptor() {
  return machdep::arch().descriptor();
}

// The encodings trap mode accepts: xsdt's patch-width NOP first, then the
// NOPs other SDT implementations leave, which a trap fits as well, so that
// "*:*" also enables the probes of libc or libstdc++. Jump patching needs
// the first one.
inline std::span<const SiteEncoding> site_encodings() {
  return descriptor().site_encodings;
}

// The signal a trap raises (SIGTRAP, or SIGILL on s390x), and the one it
// raises when the kernel finds the trap removed by another thread before it
// read it (armhf: SIGILL), or 0.
inline int trap_signal() { return descriptor().trap_signal; }
inline int trap_race_signal() { return descriptor().trap_race_signal; }

// The site address for the pc the trap handler sees.
inline std::uintptr_t site_from_trap_pc(std::uintptr_t pc) {
  return pc - descriptor().trap_pc_offset;
}

// ---- Jump sites (SDT(9)): size, alignment and NOP (the first encoding's).
inline std::size_t jump_site_size() {
  return descriptor().site_encodings[0].nop.size();
}
inline std::size_t jump_site_align() { return descriptor().site_align; }
// The NOP the jump site at `site`, whose jump goes to `target`, holds while
// disabled: the arch's one NOP, or one that names the target (s390x); false
// when the target is out of reach.
inline bool jump_site_nop(std::uintptr_t site, std::uintptr_t target,
                          unsigned char *out) {
  return descriptor().jump_site_nop(site, target, out);
}

// The jump from site to target (jump_site_size() bytes); false when the
// target is out of the jump's reach.
inline bool encode_jump(std::uintptr_t site, std::uintptr_t target,
                        unsigned char *out) {
  return descriptor().encode_jump(site, target, out);
}
inline bool decode_jump(std::uintptr_t site, const unsigned char *in,
                        std::uintptr_t *target) {
  std::uint64_t t = 0;
  if (!descriptor().decode_jump(site, in, &t))
    return false;
  *target = static_cast<std::uintptr_t>(t);
  return true;
}

// Whether replacing the NOP by the jump takes more than one atomic store
// (x86: 5 bytes), so that the trap-first protocol is needed.
inline bool jump_needs_trap_first() {
  return descriptor().jump_needs_trap_first;
}

} // namespace xsdt::rt::isa

#endif // XSDT_RUNTIME_ISA_H
