// Private to libxsdt: what the USDT part (usdt.cpp) and the SDT part
// (sdt_enable.cpp) share to write code. One lock for every enable and
// disable, so the two never write the same page at once and a site is
// never enabled both ways; and the code patcher: batched, verified,
// all-or-nothing site writes. Both are defined in patcher.cpp (the trap
// handler they share is in trap.h), not in the SDT part, so a program
// that only uses USDT probes does not pull the SDT part in.
#ifndef XSDT_RUNTIME_PATCH_H
#define XSDT_RUNTIME_PATCH_H

#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace xsdt {
struct SiteEncoding; // xsdt/arch_port.h
} // namespace xsdt

namespace xsdt::rt {

// Held by every enable, disable and list call of both parts.
std::mutex &api_lock();

// ---- The code patcher ----------------------------------------------------

// x86-64's USDT site, `nop; nop10`, is the widest: 11 bytes.
inline constexpr std::size_t kMaxSiteBytes = 16;

// One site to rewrite from `from` to `to` (both `size` bytes: the whole
// site, so that every byte is verified, not only those that change).
// Kept small (56 bytes on LP64): an enable of 100000 sites holds one each.
struct CodeWrite {
  std::uintptr_t addr = 0;
  // The site's instruction set: its trap and whether a change beyond the
  // trap's bytes needs the trap-first protocol. Null: the arch's first.
  const SiteEncoding *encoding = nullptr;
  unsigned char from[kMaxSiteBytes] = {};
  unsigned char to[kMaxSiteBytes] = {};
  std::uint32_t tag = 0; // the caller's index, reported on failure
  std::int16_t prot = 0; // PROT_* of the segment, restored (0: r-x)
  std::uint8_t size = 0; // <= kMaxSiteBytes
};
struct PatchFailure {
  xsdt_status code = XSDT_OK; // UNEXPECTED_BYTES, PROTECT or INTERNAL
  std::size_t tag = 0;        // the write that failed
  std::string reason;         // "expected 0f 1f 44 00 00, found ..." etc.
};

// Applies every write or none. Sorted by address and grouped into runs of
// adjacent pages with one protection; each run is made RWX with one
// mprotect, written, flushed with one flush_icache and given its
// protection back. Every write checks the site's bytes just before it
// stores. A change that fits one aligned 1-, 2- or 4-byte word is one
// atomic store; a wider one (the x86 jump) uses the trap-first protocol
// (trap over the head, serialize all threads, the tail, serialize, the
// head, serialize), so the caller must have published what a trap at such
// a site means before calling. On any failure every site already written
// is put back to its `from` bytes, pages get their protection back, and
// failure says what went wrong. Call with api_lock() held.
// May throw std::bad_alloc before it changes anything, never after.
bool apply_code_writes(std::vector<CodeWrite> writes, PatchFailure *failure);

// apply_code_writes in two steps, for a caller that publishes what the
// writes mean in between: prepare() sorts and checks the writes and
// allocates all the batch needs (it may throw std::bad_alloc, with nothing
// changed); apply() allocates nothing and throws nothing, so running out
// of memory cannot stop it half way. apply() once per prepare().
//
// A batch may be kept and filled again for the next call (reserve(), add()
// and prepare() again): its storage stays allocated, so a caller that
// writes 100000 sites at every call does not allocate and fault in fresh
// pages for them each time.
class CodeBatch {
public:
  CodeBatch();
  explicit CodeBatch(std::vector<CodeWrite> writes); // and prepare()
  ~CodeBatch();
  CodeBatch(const CodeBatch &) = delete;
  CodeBatch &operator=(const CodeBatch &) = delete;
  // Empties the batch and makes room for n writes: may throw
  // std::bad_alloc. Then add() allocates nothing for up to n writes.
  void reserve(std::size_t n);
  void add(const CodeWrite &w) { writes_.push_back(w); } // inline: per site
  void prepare();
  bool apply(PatchFailure *failure) noexcept;

private:
  struct State;
  std::vector<CodeWrite> writes_;
  std::unique_ptr<State> state_;
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_PATCH_H
