// libxsdt: reads of this process's memory that report a bad address
// instead of faulting, for evaluating probe arguments in the trap handler
// (the MemoryReader of xsdt/argeval.h). A file of its own because it is
// the one place that knows how to read a possibly unmapped address without
// a SIGSEGV, natively and under QEMU user mode, and it keeps its own state
// (the read mode) that nothing else touches.
#include "safe_read.h"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace xsdt::rt {
namespace {

// 0: read memory with process_vm_readv; 1: through a pipe (QEMU user mode
// has no process_vm_readv; a write() from a bad address fails with EFAULT
// instead of faulting, natively and under QEMU).
std::atomic<int> g_read_mode{0};

bool read_via_pipe(std::uint64_t addr, void *dst, std::size_t n) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return false;
  bool ok = false;
  ssize_t w = write(
      fds[1], reinterpret_cast<const void *>(static_cast<std::uintptr_t>(addr)),
      n);
  if (w == static_cast<ssize_t>(n))
    ok = read(fds[0], dst, n) == static_cast<ssize_t>(n);
  close(fds[0]);
  close(fds[1]);
  return ok;
}

} // namespace

bool safe_read(void *, std::uint64_t addr, void *dst, std::size_t n) {
  if (addr > UINTPTR_MAX || n > UINTPTR_MAX - addr)
    return false;
  if (g_read_mode.load(std::memory_order_relaxed) == 0) {
    iovec local{dst, n};
    iovec remote{reinterpret_cast<void *>(static_cast<std::uintptr_t>(addr)),
                 n};
    ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (got == static_cast<ssize_t>(n))
      return true;
    if (got >= 0 || errno == EFAULT)
      return false;
    // ENOSYS (QEMU user mode), EPERM (seccomp): fall back for good.
    g_read_mode.store(1, std::memory_order_relaxed);
  }
  return read_via_pipe(addr, dst, n);
}

// Decides the read mode once, outside signal context: process_vm_readv must
// not just succeed but return our own bytes (an emulator could translate
// addresses differently).
void choose_read_mode() {
  volatile std::uint64_t probe = 0x5844534454524150; // arbitrary
  std::uint64_t copy = 0;
  iovec local{&copy, sizeof copy};
  iovec remote{const_cast<std::uint64_t *>(&probe), sizeof probe};
  ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  g_read_mode.store(got == sizeof copy && copy == probe ? 0 : 1);
}

} // namespace xsdt::rt
