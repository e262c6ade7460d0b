// Private to libxsdt: memory reads that cannot fault (safe_read.cpp), used
// by the USDT part to evaluate probe arguments inside the trap handler and
// set up by the trap handler's installation.
#ifndef XSDT_RUNTIME_SAFE_READ_H
#define XSDT_RUNTIME_SAFE_READ_H

#include <cstddef>
#include <cstdint>

namespace xsdt::rt {

// A MemoryReader read function (xsdt/argeval.h; its context is unused):
// copies n bytes at addr to dst, or returns false when they are not all
// readable. Async-signal-safe: system calls only, no lock, no allocation.
bool safe_read(void *context, std::uint64_t addr, void *dst, std::size_t n);

// Decides once, outside signal context, whether safe_read can use
// process_vm_readv here or must go through a pipe. Called before the first
// trap can be taken.
void choose_read_mode();

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SAFE_READ_H
