// How libxsdt serializes every thread of the process between the steps of
// the trap-first patching protocol (sdt/runtime/src/patch.h), which only
// the arches whose jump is wider than one atomic store use
// (isa::any_jump_needs_trap_first()): a jump that one store writes needs
// nothing but the icache flush, and nothing calls this there.
#ifndef XSDT_RUNTIME_MEMBARRIER_H
#define XSDT_RUNTIME_MEMBARRIER_H

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace xsdt::rt {

// The SYNC_CORE membarrier makes every thread of the process execute a
// core-serializing instruction before it returns (Linux >= 4.16; needs a
// one-time registration). Without it (older kernels, some emulators) the
// caller falls back to what it can do.
inline bool membarrier_sync_core() {
  static const bool registered =
      syscall(__NR_membarrier,
              MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0;
  return registered &&
         syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0,
                 0) == 0;
}

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_MEMBARRIER_H
