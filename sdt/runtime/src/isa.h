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
#include <cstring>
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

// ---- Jump sites (SDT(9)). An arch may have several instruction sets
// (armhf: Thumb-2 and ARM state, in one process), each with its own NOP and
// jump; each site is patched in the encoding whose NOP it holds. All have
// the first encoding's size.
inline std::size_t jump_site_size() {
  return descriptor().site_encodings[0].nop.size();
}
inline std::size_t jump_site_align() { return descriptor().site_align; }
inline const SiteEncoding &first_encoding() {
  return descriptor().site_encodings[0];
}

// The NOP the jump site at `site`, whose jump goes to `target`, holds while
// disabled: the encoding's NOP, or one that names the target (s390x);
// false when the target is out of reach.
inline bool jump_site_nop(const SiteEncoding &e, std::uintptr_t site,
                          std::uintptr_t target, unsigned char *out) {
  return descriptor().jump_site_nop(e, site, target, out);
}

// The jump from site to target (jump_site_size() bytes); false when the
// target is out of the jump's reach.
inline bool encode_jump(const SiteEncoding &e, std::uintptr_t site,
                        std::uintptr_t target, unsigned char *out) {
  return descriptor().encode_jump_of(e, site, target, out);
}
inline bool decode_jump(const SiteEncoding &e, std::uintptr_t site,
                        const unsigned char *in, std::uintptr_t *target) {
  std::uint64_t t = 0;
  if (!descriptor().decode_jump_of(e, site, in, &t))
    return false;
  *target = static_cast<std::uintptr_t>(t);
  return true;
}

// Whether replacing the encoding's NOP by its jump takes more than one
// atomic store (x86: 5 bytes; Thumb-2: two halfwords), so that the
// trap-first protocol is needed; and whether any encoding's does.
inline bool jump_needs_trap_first(const SiteEncoding &e) {
  return descriptor().jump_needs_trap_first_of(e);
}
inline bool any_jump_needs_trap_first() {
  return descriptor().any_jump_needs_trap_first();
}

// ---- What an enabled site holds: the one rule of both parts.

// A site in trap mode: the encoding's trap over the head of the `size`
// bytes the site holds while disabled (a USDT site's NOP; a jump site's
// NOP, which may name its target), the rest of them kept.
inline void trapped_site(const SiteEncoding &e, const unsigned char *disabled,
                         std::size_t size, unsigned char *out) {
  std::memmove(out, disabled, size); // out may be disabled itself
  std::memcpy(out, e.trap.data(), e.trap.size());
}

// A jump site enabled (jump_site_size() bytes): the jump to its target in
// jump mode (`jump`), else its trap. False when the jump cannot reach the
// target.
inline bool enabled_jump_site(bool jump, const SiteEncoding &e,
                              std::uintptr_t site, std::uintptr_t target,
                              unsigned char *out) {
  if (jump)
    return encode_jump(e, site, target, out);
  if (!jump_site_nop(e, site, target, out))
    return false;
  trapped_site(e, out, jump_site_size(), out);
  return true;
}

// The encoding of the jump site at `site` (jump to `target`), from the
// bytes it holds: its NOP, its jump, or its trap (while enabled in trap
// mode). Null when none matches.
inline const SiteEncoding *jump_encoding_at(std::uintptr_t site,
                                            std::uintptr_t target,
                                            const unsigned char *bytes) {
  constexpr std::size_t kMax = 16;
  const std::size_t size = jump_site_size();
  if (size > kMax)
    return nullptr;
  for (const SiteEncoding &e : site_encodings()) {
    if (!descriptor().takes_jumps(e))
      continue;
    unsigned char nop[kMax], jump[kMax], trap[kMax];
    if (!jump_site_nop(e, site, target, nop) ||
        !encode_jump(e, site, target, jump))
      continue;
    trapped_site(e, nop, size, trap);
    if (std::memcmp(bytes, nop, size) == 0 ||
        std::memcmp(bytes, jump, size) == 0 ||
        std::memcmp(bytes, trap, size) == 0)
      return &e;
  }
  return nullptr;
}

} // namespace xsdt::rt::isa

#endif // XSDT_RUNTIME_ISA_H
