// libxsdt's code patcher (declared in patch.h): batched, verified,
// all-or-nothing writes of site bytes, and api_lock(), the one lock that
// every enable, disable and list of both parts holds. It is separate from
// the USDT part (usdt.cpp) and the SDT part (sdt_enable.cpp) because both
// write code through it and neither owns it; it knows bytes, pages and
// threads, not probes.
#include "patch.h"

#include "atomic_count.h"
#include "isa.h"
#include "machdep.h"
#include "membarrier.h"
#include "tsan.h"
#include "xsdt/hex_text.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace xsdt::rt {

std::mutex &api_lock() {
  static std::mutex lock;
  return lock;
}

// ---- The code patcher (patch.h) ------------------------------------------
//
// Code is written through its own executable mapping (mprotect to RWX,
// store, mprotect back to the segment's protection): a second, writable
// alias mapping leaves QEMU executing stale translations.

namespace {

struct PatchCounters {
  AtomicCount sites_written{0};
  AtomicCount mprotect_calls{0};
  AtomicCount icache_flushes{0};
  AtomicCount serializations{0};
};
PatchCounters g_patch_counters;

void count(AtomicCount &counter) {
  counter.fetch_add(1, std::memory_order_relaxed);
}

std::uintptr_t page_size() {
  static const auto size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

// Adjacent pages of one protection, made writable and restored together.
struct PageRun {
  std::uintptr_t start = 0, end = 0;
  int prot = 0;
  std::size_t first = 0, last = 0; // writes [first, last) of the batch
};

// Into `runs`, whose storage a kept batch reuses.
void page_runs(const std::vector<CodeWrite> &writes,
               std::vector<PageRun> &runs) {
  const std::uintptr_t page = page_size();
  runs.clear();
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const CodeWrite &w = writes[i];
    std::uintptr_t start = w.addr & ~(page - 1);
    std::uintptr_t end = (w.addr + w.size + page - 1) & ~(page - 1);
    int prot = w.prot ? w.prot : PROT_READ | PROT_EXEC;
    if (!runs.empty() && runs.back().prot == prot && start <= runs.back().end) {
      runs.back().end = std::max(runs.back().end, end);
      runs.back().last = i + 1;
    } else {
      runs.push_back(PageRun{start, end, prot, i, i + 1});
    }
  }
}

// Fills *failure. Once pages are writable nothing may throw (the sites
// must be put back and the pages restored first), so a reason that cannot
// be allocated is left empty.
template <class MakeReason>
void set_failure(PatchFailure *failure, xsdt_status code, std::size_t tag,
                 MakeReason &&make_reason) noexcept {
  failure->code = code;
  failure->tag = tag;
  try {
    failure->reason = make_reason();
  } catch (...) {
    failure->reason.clear();
  }
}

// Gives every run RWX (writable) or its own protection back. On failure
// names the run's first write and the errno; a failed RWX request undoes
// the runs already opened, so nothing stays writable.
bool protect_runs(const std::vector<PageRun> &runs,
                  const std::vector<CodeWrite> &writes, bool writable,
                  PatchFailure *failure) {
  bool ok = true;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const PageRun &r = runs[i];
    int prot = writable ? PROT_READ | PROT_WRITE | PROT_EXEC : r.prot;
    count(g_patch_counters.mprotect_calls);
    if (mprotect(reinterpret_cast<void *>(r.start), r.end - r.start, prot) == 0)
      continue;
    int e = errno;
    if (ok) {
      char text[160];
      std::snprintf(text, sizeof text, "mprotect(%#lx, %lu, %s): %s",
                    static_cast<unsigned long>(r.start),
                    static_cast<unsigned long>(r.end - r.start),
                    writable ? "rwx" : "restore", std::strerror(e));
      set_failure(failure, XSDT_ERR_PROTECT, writes[r.first].tag,
                  [&] { return std::string(text); });
    }
    ok = false;
    if (writable) {
      for (std::size_t j = 0; j < i; ++j) {
        count(g_patch_counters.mprotect_calls);
        mprotect(reinterpret_cast<void *>(runs[j].start),
                 runs[j].end - runs[j].start, runs[j].prot);
      }
      return false;
    }
  }
  return ok;
}

void flush_runs(const std::vector<PageRun> &runs,
                const std::vector<CodeWrite> &writes) {
  for (const PageRun &r : runs) {
    std::uintptr_t begin = writes[r.first].addr;
    std::uintptr_t end = writes[r.last - 1].addr + writes[r.last - 1].size;
    count(g_patch_counters.icache_flushes);
    machdep::flush_icache(reinterpret_cast<void *>(begin), end - begin);
  }
}

// How far a site's rewrite has got. Only the trap-first protocol uses the
// middle stages: trap over the head with the old tail, then with the new.
// kSkip: a roll back leaves the site alone (it was never written).
enum class Stage : unsigned char { kOld, kHead, kTail, kNew, kSkip };

// The trap written over a site's head during the trap-first protocol.
const SiteEncoding &encoding_of(const CodeWrite &w) {
  return w.encoding ? *w.encoding : isa::first_encoding();
}

// The bytes a write's site holds at a stage.
void bytes_at(const CodeWrite &w, Stage stage, unsigned char *out) {
  const SiteEncoding &trap = encoding_of(w);
  // Whole arrays (out has kMaxSiteBytes too): a copy of constant size is
  // a move, not a call to memcpy.
  switch (stage) {
  case Stage::kOld:
  case Stage::kSkip:
    std::memcpy(out, w.from, kMaxSiteBytes);
    return;
  case Stage::kNew:
    std::memcpy(out, w.to, kMaxSiteBytes);
    return;
  case Stage::kHead:
  case Stage::kTail:
    std::memcpy(out, stage == Stage::kHead ? w.from : w.to, kMaxSiteBytes);
    for (std::size_t b = 0; b < trap.trap.size(); ++b)
      out[b] = trap.trap[b];
    return;
  }
}

// The smallest naturally aligned word of 1, 2 or 4 bytes that holds
// [begin, end), or 0. Wider atomic stores would need libatomic on i386.
std::size_t atomic_word(std::uintptr_t begin, std::uintptr_t end) {
  for (std::size_t size : {1u, 2u, 4u})
    if (begin / size == (end - 1) / size)
      return size;
  return 0;
}

// Stores the site bytes [lo, hi) of `bytes` with one atomic store of the
// aligned word of sizeof(Word) bytes holding them, so that a thread running
// through the site fetches the old or the new instruction, never a mix.
// The word's other bytes are stored as they are: only this thread writes
// code (under api_lock()). One function per size: copies of a constant
// size are moves, not calls to memcpy.
template <class Word>
XSDT_STORES_TO_CODE void store_word_of(std::uintptr_t site,
                                       const unsigned char *bytes,
                                       std::size_t lo, std::size_t hi) {
  const std::uintptr_t word = (site + lo) & ~(sizeof(Word) - 1);
  unsigned char merged[sizeof(Word)];
  std::memcpy(merged, reinterpret_cast<const void *>(word), sizeof(Word));
  for (std::uintptr_t a = site + lo; a < site + hi; ++a)
    merged[a - word] = bytes[a - site];
  Word v;
  std::memcpy(&v, merged, sizeof v);
  __atomic_store_n(reinterpret_cast<Word *>(word), v, __ATOMIC_RELEASE);
}

void store_word(std::uintptr_t site, const unsigned char *bytes, std::size_t lo,
                std::size_t hi, std::size_t word_size) {
  if (word_size == 1)
    store_word_of<std::uint8_t>(site, bytes, lo, hi);
  else if (word_size == 2)
    store_word_of<std::uint16_t>(site, bytes, lo, hi);
  else
    store_word_of<std::uint32_t>(site, bytes, lo, hi);
}

// Bytes [from, size) of a site, behind a trap: nothing executes them, so
// plain byte stores.
XSDT_STORES_TO_CODE void store_tail(unsigned char *site,
                                    const unsigned char *bytes,
                                    std::size_t from, std::size_t size) {
  for (std::size_t b = from; b < size; ++b)
    __atomic_store_n(site + b, bytes[b], __ATOMIC_RELAXED);
}

bool verify(const CodeWrite &w, Stage stage, PatchFailure *failure) {
  unsigned char expected[kMaxSiteBytes];
  bytes_at(w, stage, expected);
  const auto *site = reinterpret_cast<const unsigned char *>(w.addr);
  // A few bytes: a loop, not a call to memcmp (100000 sites, three times).
  std::size_t same = 0;
  while (same < w.size && site[same] == expected[same])
    ++same;
  if (same == w.size)
    return true;
  set_failure(failure, XSDT_ERR_UNEXPECTED_BYTES, w.tag, [&] {
    return "expected " + hex_bytes(expected, w.size) + ", found " +
           hex_bytes(site, w.size);
  });
  return false;
}

bool serialize(PatchFailure *failure) {
  count(g_patch_counters.serializations);
  if (membarrier_sync_core())
    return true;
  set_failure(failure, XSDT_ERR_INTERNAL, 0, [] {
    return std::string("cannot serialize the other threads (membarrier "
                       "SYNC_CORE unavailable)");
  });
  return false;
}

// Adds the sites a write_sites call wrote to the counter once, when it
// returns: a locked add per site cost a third of the writing.
struct WrittenCount {
  std::uint64_t n = 0;
  ~WrittenCount() {
    if (n)
      g_patch_counters.sites_written.fetch_add(n, std::memory_order_relaxed);
  }
};

// The writes' bytes, in place: the pages are writable. stages says how far
// each got, for the rollback.
bool write_sites(const std::vector<CodeWrite> &writes,
                 std::vector<Stage> &stages, PatchFailure *failure) {
  WrittenCount written;
  bool trap_first = false;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (stages[i] == Stage::kSkip)
      continue;
    const CodeWrite &w = writes[i];
    const SiteEncoding &trap = encoding_of(w);
    const bool needs_trap_first = isa::jump_needs_trap_first(trap);
    std::size_t lo = 0, hi = w.size;
    while (lo < hi && w.from[lo] == w.to[lo])
      ++lo;
    while (hi > lo && w.from[hi - 1] == w.to[hi - 1])
      --hi;
    if (!verify(w, Stage::kOld, failure))
      return false;
    if (lo == hi) { // nothing changes, but the bytes were checked
      stages[i] = Stage::kNew;
      continue;
    }
    // Where the jump needs the trap-first protocol, only a change within
    // the trap's bytes is one instruction-fetch unit (x86: byte 0; armhf:
    // the first halfword of a 32-bit Thumb instruction).
    const bool one_unit = !needs_trap_first || hi <= trap.trap.size();
    std::size_t word = one_unit ? atomic_word(w.addr + lo, w.addr + hi) : 0;
    if (word) {
      store_word(w.addr, w.to, lo, hi, word);
      stages[i] = Stage::kNew;
      ++written.n;
      continue;
    }
    std::size_t head_word = atomic_word(w.addr, w.addr + trap.trap.size());
    if (!needs_trap_first || trap.trap.size() >= w.size || !head_word) {
      char text[120];
      std::snprintf(text, sizeof text,
                    "a change of bytes %zu..%zu cannot be written atomically "
                    "on this arch",
                    lo, hi - 1);
      set_failure(failure, XSDT_ERR_INTERNAL, w.tag,
                  [&] { return std::string(text); });
      return false;
    }
    // The trap-first protocol: first the trap over the head. From here on
    // a thread that reaches the site traps, and the trap handler
    // resumes it as the caller published.
    unsigned char head[kMaxSiteBytes];
    bytes_at(w, Stage::kHead, head);
    store_word(w.addr, head, 0, trap.trap.size(), head_word);
    stages[i] = Stage::kHead;
    trap_first = true;
  }
  if (!trap_first)
    return true;
  // No thread may still execute the old instruction from before the trap.
  if (!serialize(failure))
    return false;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (stages[i] != Stage::kHead)
      continue;
    const CodeWrite &w = writes[i];
    if (!verify(w, Stage::kHead, failure))
      return false;
    // Behind the trap nothing executes these bytes: plain byte stores.
    auto *site = reinterpret_cast<unsigned char *>(w.addr);
    const SiteEncoding &trap = encoding_of(w);
    store_tail(site, w.to, trap.trap.size(), w.size);
    stages[i] = Stage::kTail;
  }
  if (!serialize(failure))
    return false;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (stages[i] != Stage::kTail)
      continue;
    const CodeWrite &w = writes[i];
    if (!verify(w, Stage::kTail, failure))
      return false;
    const SiteEncoding &trap = encoding_of(w);
    store_word(w.addr, w.to, 0, trap.trap.size(),
               atomic_word(w.addr, w.addr + trap.trap.size()));
    stages[i] = Stage::kNew;
    ++written.n;
  }
  // Every thread now fetches the new head with the new tail.
  return serialize(failure);
}

// Puts every touched site back to its `from` bytes, by the same rules
// (the pages are writable). Best effort: a failure here leaves the site as
// it was found, since every store is verified first. In place, so that it
// needs no memory: each touched write becomes its own undo (from what its
// stage left to its old bytes) and the untouched ones are skipped; the
// batch is spent afterwards.
void roll_back(std::vector<CodeWrite> &writes, std::vector<Stage> &stages,
               PatchFailure &ignored) noexcept {
  for (std::size_t i = 0; i < writes.size(); ++i) {
    if (stages[i] == Stage::kOld || stages[i] == Stage::kSkip) {
      stages[i] = Stage::kSkip;
      continue;
    }
    CodeWrite &w = writes[i];
    unsigned char now[kMaxSiteBytes] = {};
    bytes_at(w, stages[i], now);
    std::memcpy(w.to, w.from, kMaxSiteBytes);
    std::memcpy(w.from, now, kMaxSiteBytes);
    stages[i] = Stage::kOld;
  }
  write_sites(writes, stages, &ignored);
}

} // namespace

// What a batch needs from its first mprotect to its last, allocated
// before the first.
struct CodeBatch::State {
  PatchFailure invalid; // a write that is empty, oversized or overlapping
  std::vector<PageRun> runs;
  std::vector<Stage> stages;
  PatchFailure undo_failure; // of a roll back, ignored
  bool prepared = false, applied = false;
};

CodeBatch::CodeBatch() : state_(std::make_unique<State>()) {}

CodeBatch::CodeBatch(std::vector<CodeWrite> writes)
    : writes_(std::move(writes)), state_(std::make_unique<State>()) {
  prepare();
}

CodeBatch::~CodeBatch() = default;

void CodeBatch::reserve(std::size_t n) {
  State &b = *state_;
  writes_.clear();
  b.prepared = b.applied = false;
  writes_.reserve(n);
  b.stages.reserve(n);
}

void CodeBatch::prepare() {
  State &b = *state_;
  std::vector<CodeWrite> &writes = writes_;
  b.invalid = PatchFailure{};
  b.applied = false;
  auto by_address = [](const CodeWrite &a, const CodeWrite &b) {
    return a.addr < b.addr;
  };
  // Callers that can produce the writes in address order do (a sort of
  // 100000 writes costs more than writing them).
  if (!std::is_sorted(writes.begin(), writes.end(), by_address))
    std::sort(writes.begin(), writes.end(), by_address);
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const CodeWrite &w = writes[i];
    if (w.size == 0 || w.size > kMaxSiteBytes ||
        (i > 0 && writes[i - 1].addr + writes[i - 1].size > w.addr)) {
      b.invalid = PatchFailure{XSDT_ERR_INTERNAL, w.tag,
                               "empty, oversized or overlapping site write"};
      b.prepared = true;
      return;
    }
  }
  page_runs(writes, b.runs);
  b.stages.assign(writes.size(), Stage::kOld);
  b.prepared = true;
}

bool CodeBatch::apply(PatchFailure *failure) noexcept {
  State &b = *state_;
  failure->code = XSDT_OK;
  failure->tag = 0;
  failure->reason.clear();
  if (b.prepared && !b.applied && writes_.empty())
    return true;
  if (!b.prepared || b.invalid.code != XSDT_OK || b.applied) {
    set_failure(failure, XSDT_ERR_INTERNAL, b.invalid.tag, [&] {
      return !b.prepared ? std::string("a batch applied unprepared")
             : b.applied ? std::string("a batch applied twice")
                         : b.invalid.reason;
    });
    return false;
  }
  b.applied = true;
  std::vector<CodeWrite> &writes = writes_;
  if (!protect_runs(b.runs, writes, true, failure))
    return false; // nothing written
  bool ok = write_sites(writes, b.stages, failure);
  if (!ok)
    roll_back(writes, b.stages, b.undo_failure);
  flush_runs(b.runs, writes);
  if (!protect_runs(b.runs, writes, false, failure) && ok) {
    // Written, but a page would stay writable: undo everything (all or
    // nothing) while the pages can still be written, then try again.
    ok = false;
    protect_runs(b.runs, writes, true, &b.undo_failure);
    roll_back(writes, b.stages, b.undo_failure);
    flush_runs(b.runs, writes);
    protect_runs(b.runs, writes, false, &b.undo_failure);
  }
  return ok;
}

bool apply_code_writes(std::vector<CodeWrite> writes, PatchFailure *failure) {
  CodeBatch batch(std::move(writes)); // may throw, with nothing changed
  return batch.apply(failure);
}

} // namespace xsdt::rt

// The patcher's counters, read here so that a program that only uses USDT
// probes can read them without pulling in the SDT part.
extern "C" void xsdt_get_patch_stats(xsdt_patch_stats *out) {
  if (!out)
    return;
  using xsdt::rt::g_patch_counters;
  out->sites_written =
      g_patch_counters.sites_written.load(std::memory_order_relaxed);
  out->mprotect_calls =
      g_patch_counters.mprotect_calls.load(std::memory_order_relaxed);
  out->icache_flushes =
      g_patch_counters.icache_flushes.load(std::memory_order_relaxed);
  out->serializations =
      g_patch_counters.serializations.load(std::memory_order_relaxed);
}
