// libxsdt: the C API (trap mode). See docs/runtime.md.
//
// Concurrency model. Enable, disable and list serialise on one mutex. The
// SIGTRAP handler never locks or allocates: it reads an immutable, sorted
// table of enabled sites through an atomic pointer. A new table is
// published before any trap is written (so every trap finds its entry) and
// after traps are removed (so an entry outlives its trap). Old tables and
// site records are never freed, because a handler on another thread may
// still be reading them; that leak is bounded by the enable/disable calls.
#include "xsdt/runtime.h"

#include "internal.h"
#include "machdep.h"
#include "xsdt/argeval.h"
#include "xsdt/argspec.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fnmatch.h>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

namespace xsdt::rt {
namespace {

// An enabled site. Immutable once published; never freed.
struct SiteRecord {
  std::uintptr_t site = 0;
  std::uintptr_t semaphore = 0;
  int prot = 0;
  // What the site held when it was enabled; its size is where execution
  // resumes after a hit.
  const machdep::SiteEncoding *encoding = nullptr;
  std::string provider, name, args, object;
  xsdt_probe_info info{};
  int argc = 0;
  CompiledArg compiled[XSDT_MAX_ARGS];
  xsdt_probe_handler handler = nullptr;
  void *user = nullptr;
};

// A sorted array of site addresses and their records.
struct Table {
  std::size_t n = 0;
  const std::uintptr_t *sites = nullptr;
  SiteRecord *const *records = nullptr; // null in the history table
};

const Table kEmpty{};
std::atomic<const Table *> g_enabled{&kEmpty};
// Every site this process ever patched: a trap taken just before a
// concurrent disable removed it is recognised here and re-executed.
std::atomic<const Table *> g_history{&kEmpty};

std::mutex g_lock;
std::vector<SiteRecord *> g_active; // under g_lock: the enabled sites

struct sigaction g_previous;
std::atomic<bool> g_installed{false};
// 0: read memory with process_vm_readv; 1: through a pipe (QEMU user mode
// has no process_vm_readv; a write() from a bad address fails with EFAULT
// instead of faulting, natively and under QEMU).
std::atomic<int> g_read_mode{0};

// ---- Errors ------------------------------------------------------------

int fail(xsdt_error *err, xsdt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int fail(xsdt_error *err, xsdt_status code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return -1;
}

void clear(xsdt_error *err) {
  if (err) {
    err->code = XSDT_OK;
    err->message[0] = '\0';
  }
}

std::string hex_bytes(const unsigned char *p, std::size_t n) {
  std::string s;
  char buf[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, i ? " %02x" : "%02x", p[i]);
    s += buf;
  }
  return s;
}

// ---- Patterns ----------------------------------------------------------

struct Pattern {
  std::string provider, name;
};

bool parse_pattern(const char *text, Pattern *out) {
  if (!text || !*text)
    return false;
  std::string_view s(text);
  std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) {
    if (s != "*")
      return false;
    *out = Pattern{"*", "*"};
    return true;
  }
  if (colon == 0 || colon + 1 == s.size() ||
      s.find(':', colon + 1) != std::string_view::npos)
    return false;
  *out = Pattern{std::string(s.substr(0, colon)),
                 std::string(s.substr(colon + 1))};
  return true;
}

bool matches(const Pattern &p, const std::string &provider,
             const std::string &name) {
  return fnmatch(p.provider.c_str(), provider.c_str(), 0) == 0 &&
         fnmatch(p.name.c_str(), name.c_str(), 0) == 0;
}

// ---- Tables --------------------------------------------------------------

const SiteRecord *find(const Table *t, std::uintptr_t site) {
  const std::uintptr_t *end = t->sites + t->n;
  const std::uintptr_t *it = std::lower_bound(t->sites, end, site);
  if (it == end || *it != site)
    return nullptr;
  return t->records ? t->records[it - t->sites] : nullptr;
}

bool contains(const Table *t, std::uintptr_t site) {
  const std::uintptr_t *end = t->sites + t->n;
  const std::uintptr_t *it = std::lower_bound(t->sites, end, site);
  return it != end && *it == site;
}

// Builds a table of recs (sorted here); leaks by design.
const Table *make_table(std::vector<SiteRecord *> recs) {
  std::sort(recs.begin(), recs.end(),
            [](const SiteRecord *a, const SiteRecord *b) {
              return a->site < b->site;
            });
  auto *sites = new std::uintptr_t[recs.size() + 1];
  auto *records = new SiteRecord *[recs.size() + 1];
  for (std::size_t i = 0; i < recs.size(); ++i) {
    sites[i] = recs[i]->site;
    records[i] = recs[i];
  }
  return new Table{recs.size(), sites, records};
}

const Table *make_history(const Table *old,
                          const std::vector<SiteRecord *> &add) {
  std::vector<std::uintptr_t> all(old->sites, old->sites + old->n);
  for (const SiteRecord *r : add)
    all.push_back(r->site);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  auto *sites = new std::uintptr_t[all.size() + 1];
  std::copy(all.begin(), all.end(), sites);
  return new Table{all.size(), sites, nullptr};
}

// ---- Memory reads that cannot fault --------------------------------------

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

// ---- The SIGTRAP handler -----------------------------------------------

void forward(int sig, siginfo_t *si, void *uc) {
  const struct sigaction &prev = g_previous;
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) {
      prev.sa_sigaction(sig, si, uc);
      return;
    }
  } else if (prev.sa_handler == SIG_IGN) {
    return;
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler) {
    prev.sa_handler(sig);
    return;
  }
  // SIG_DFL: die as the trap would have killed us without the runtime.
  // SIGTRAP is blocked in this handler, so the raised signal is delivered
  // with the default action as soon as the handler returns.
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGTRAP, &dfl, nullptr);
  raise(SIGTRAP);
}

void dispatch(const SiteRecord *r, void *uc) {
  RegisterFile regs;
  machdep::fill_registers(uc, &regs);
  xsdt_arg args[XSDT_MAX_ARGS];
  MemoryReader reader{&safe_read, nullptr};
  for (int i = 0; i < r->argc; ++i) {
    const CompiledArg &c = r->compiled[i];
    EvalValue v;
    bool ok = evaluate(c, regs, reader, &v);
    args[i].bits = ok ? v.bits : 0;
    args[i].as_double = ok ? v.as_double : 0;
    args[i].size = c.size;
    args[i].is_signed = c.is_signed;
    args[i].is_float = c.is_float;
    args[i].valid = ok;
  }
  r->handler(&r->info, r->argc, args, r->user);
}

void on_sigtrap(int sig, siginfo_t *si, void *uc) {
  int saved_errno = errno;
  std::uintptr_t site = machdep::site_from_trap_pc(machdep::context_pc(uc));
  if (const SiteRecord *r =
          find(g_enabled.load(std::memory_order_acquire), site)) {
    dispatch(r, uc);
    machdep::set_context_pc(uc, site + r->encoding->size);
  } else if (contains(g_history.load(std::memory_order_acquire), site)) {
    // Our trap, removed by a disable between the hit and this lookup:
    // execute whatever the site holds now (the NOP, or a trap that a new
    // enable put back and that will find its entry).
    machdep::set_context_pc(uc, site);
  } else {
    errno = saved_errno;
    forward(sig, si, uc);
    return;
  }
  errno = saved_errno;
}

int install_handler(xsdt_error *err) {
  if (g_installed.load())
    return 0;
  choose_read_mode();
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigtrap;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGTRAP, &sa, &g_previous) != 0)
    return fail(err, XSDT_ERR_SIGNAL, "sigaction(SIGTRAP): %s",
                std::strerror(errno));
  g_installed.store(true);
  return 0;
}

// ---- Code patching -------------------------------------------------------

// Writes the trap-sized head of a site through the executable mapping
// itself (a second, writable alias mapping leaves QEMU executing stale
// translations). One aligned store of 1 or 4 bytes, so a thread running
// through the site sees the old or the new instruction, never a mix.
bool write_head(std::uintptr_t site, int prot,
                const machdep::SiteEncoding &encoding,
                const unsigned char *bytes, int *saved_errno) {
  std::size_t n = encoding.trap_size;
  std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::uintptr_t start = site & ~(page - 1);
  std::uintptr_t end = (site + encoding.size + page - 1) & ~(page - 1);
  void *addr = reinterpret_cast<void *>(start);
  if (mprotect(addr, end - start, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
    *saved_errno = errno;
    return false;
  }
  auto *p = reinterpret_cast<unsigned char *>(site);
  if (n == 4 && site % 4 == 0) {
    std::uint32_t word;
    std::memcpy(&word, bytes, 4);
    __atomic_store_n(reinterpret_cast<std::uint32_t *>(p), word,
                     __ATOMIC_RELEASE);
  } else if (n == 2 && site % 2 == 0) {
    std::uint16_t half;
    std::memcpy(&half, bytes, 2);
    __atomic_store_n(reinterpret_cast<std::uint16_t *>(p), half,
                     __ATOMIC_RELEASE);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      __atomic_store_n(p + i, bytes[i], __ATOMIC_RELEASE);
  }
  // Back to the segment's own protection (normally r-x).
  int restore = prot ? prot : PROT_READ | PROT_EXEC;
  if (mprotect(addr, end - start, restore) != 0)
    *saved_errno = errno; // patched but left writable: still report it
  machdep::flush_icache(p, n);
  return true;
}

// Whether the site holds `head` followed by the rest of the encoding's NOP.
bool holds(std::uintptr_t site, const machdep::SiteEncoding &encoding,
           const unsigned char *head) {
  auto *p = reinterpret_cast<const unsigned char *>(site);
  std::size_t n = encoding.trap_size;
  return std::memcmp(p, head, n) == 0 &&
         std::memcmp(p + n, encoding.nop + n, encoding.size - n) == 0;
}

bool holds_nop(const SiteRecord &r) {
  return holds(r.site, *r.encoding, r.encoding->nop);
}

bool holds_trap(const SiteRecord &r) {
  return holds(r.site, *r.encoding, r.encoding->trap);
}

// The encoding the site holds now, or null for foreign bytes.
const machdep::SiteEncoding *match_encoding(std::uintptr_t site) {
  const machdep::SiteEncoding *encodings;
  std::size_t n = machdep::site_encodings(&encodings);
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(reinterpret_cast<const void *>(site), encodings[i].nop,
                    encodings[i].size) == 0)
      return &encodings[i];
  return nullptr;
}

// "0f 1f 44 00 00 (5-byte nopl) or 90 (1-byte nop (sys/sdt.h))".
std::string expected_encodings() {
  const machdep::SiteEncoding *encodings;
  std::size_t n = machdep::site_encodings(&encodings);
  std::string text;
  for (std::size_t i = 0; i < n; ++i) {
    if (i)
      text += " or ";
    text += hex_bytes(encodings[i].nop, encodings[i].size) + " (" +
            encodings[i].what + ")";
  }
  return text;
}

// Adds delta to a 16-bit semaphore atomically (other tracers may update it
// too). Done as a compare-and-swap on the aligned 32-bit word that holds it:
// a 2-byte aligned counter never straddles that word, and subword atomics
// would need libatomic on riscv64 with gcc, which C programs do not link.
void add_semaphore(std::uintptr_t addr, int delta) {
  if (!addr)
    return;
  if (addr & 1) { // not a C unsigned short: no atomic access possible
    auto *sem = reinterpret_cast<volatile std::uint16_t *>(addr);
    *sem = static_cast<std::uint16_t>(*sem + delta);
    return;
  }
  auto *word = reinterpret_cast<std::uint32_t *>(addr & ~std::uintptr_t{3});
  unsigned shift = static_cast<unsigned>(addr & 2) * 8; // little-endian
  std::uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    std::uint32_t count = (old >> shift) & 0xffffu;
    std::uint32_t next_count =
        (count + static_cast<std::uint32_t>(delta)) & 0xffffu;
    std::uint32_t next = (old & ~(0xffffu << shift)) | (next_count << shift);
    if (__atomic_compare_exchange_n(word, &old, next, true, __ATOMIC_SEQ_CST,
                                    __ATOMIC_RELAXED))
      return;
  }
}

std::string probe_name(const SiteRecord &r) {
  return r.provider + ":" + r.name;
}

// ---- The API bodies (may throw std::bad_alloc; wrapped below) ----------

int list_impl(xsdt_probe_visitor visit, void *user, xsdt_error *err) {
  std::lock_guard<std::mutex> guard(g_lock);
  std::vector<ProbeSite> sites = discover_probes();
  clear(err);
  for (const ProbeSite &s : sites) {
    if (!visit)
      continue;
    xsdt_probe_info info{s.provider.c_str(),     s.name.c_str(), s.args.c_str(),
                         s.object.c_str(),       s.pc,           s.semaphore,
                         s.argc < 0 ? 0 : s.argc};
    visit(&info, user);
  }
  return static_cast<int>(sites.size());
}

int enable_impl(const char *pattern, xsdt_probe_handler handler, void *user,
                xsdt_error *err) {
  Pattern pat;
  if (!parse_pattern(pattern, &pat))
    return fail(err, XSDT_ERR_BAD_PATTERN,
                "pattern '%s' is not 'provider:name' (fnmatch globs)",
                pattern ? pattern : "(null)");
  if (!handler)
    return fail(err, XSDT_ERR_INTERNAL, "no handler given");

  std::lock_guard<std::mutex> guard(g_lock);
  std::vector<ProbeSite> sites = discover_probes();
  const Arch arch = machdep::arch();
  std::vector<SiteRecord *> fresh;
  // Until published, records are owned here.
  struct Owner {
    std::vector<SiteRecord *> *v;
    bool keep = false;
    ~Owner() {
      if (!keep)
        for (SiteRecord *r : *v)
          delete r;
    }
  } owner{&fresh};

  for (const ProbeSite &s : sites) {
    if (!matches(pat, s.provider, s.name))
      continue;
    bool duplicate = false;
    for (const SiteRecord *r : fresh)
      duplicate = duplicate || r->site == s.pc;
    if (duplicate)
      continue; // two notes for one site: one trap serves both
    for (const SiteRecord *r : g_active)
      if (r->site == s.pc)
        return fail(err, XSDT_ERR_ALREADY_ENABLED,
                    "probe %s:%s at %#lx is already enabled",
                    s.provider.c_str(), s.name.c_str(),
                    static_cast<unsigned long>(s.pc));
    auto rec = new SiteRecord;
    fresh.push_back(rec);
    rec->site = s.pc;
    rec->semaphore = s.semaphore;
    rec->prot = s.prot;
    rec->provider = s.provider;
    rec->name = s.name;
    rec->args = s.args;
    rec->object = s.object;
    rec->handler = handler;
    rec->user = user;
    auto locs = parse_arg_specs(s.args, arch);
    if (!locs)
      return fail(err, XSDT_ERR_BAD_SPEC, "probe %s:%s at %#lx: %s",
                  s.provider.c_str(), s.name.c_str(),
                  static_cast<unsigned long>(s.pc),
                  locs.error().to_string().c_str());
    rec->argc = static_cast<int>(locs->size());
    for (std::size_t i = 0; i < locs->size(); ++i) {
      auto c = compile_arg((*locs)[i], arch);
      if (!c)
        return fail(err, XSDT_ERR_BAD_SPEC,
                    "probe %s:%s at %#lx, argument %zu: %s", s.provider.c_str(),
                    s.name.c_str(), static_cast<unsigned long>(s.pc), i + 1,
                    c.error().to_string().c_str());
      rec->compiled[i] = c.value();
    }
    rec->info = xsdt_probe_info{rec->provider.c_str(),
                                rec->name.c_str(),
                                rec->args.c_str(),
                                rec->object.c_str(),
                                rec->site,
                                rec->semaphore,
                                rec->argc};
  }
  if (fresh.empty())
    return fail(err, XSDT_ERR_NO_MATCH, "no probe matches '%s'", pattern);

  // Check every site before touching any, so that a foreign site leaves
  // nothing patched.
  const machdep::SiteEncoding *encodings;
  machdep::site_encodings(&encodings);
  const std::size_t longest = encodings[0].size;
  for (SiteRecord *r : fresh) {
    r->encoding = match_encoding(r->site);
    if (!r->encoding)
      return fail(err, XSDT_ERR_UNEXPECTED_BYTES,
                  "probe %s at %#lx: expected %s, found %s",
                  probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
                  expected_encodings().c_str(),
                  hex_bytes(reinterpret_cast<const unsigned char *>(r->site),
                            longest)
                      .c_str());
  }

  if (install_handler(err) != 0)
    return -1;

  // Publish the entries before the traps exist.
  const Table *before = g_enabled.load();
  std::vector<SiteRecord *> all = g_active;
  all.insert(all.end(), fresh.begin(), fresh.end());
  g_history.store(make_history(g_history.load(), fresh));
  g_enabled.store(make_table(all), std::memory_order_release);
  owner.keep = true; // published: a handler may hold them from now on

  std::size_t patched = 0;
  int result = 0;
  for (; patched < fresh.size(); ++patched) {
    const SiteRecord *r = fresh[patched];
    int e = 0;
    if (!holds_nop(*r)) { // re-check right before the write
      result =
          fail(err, XSDT_ERR_UNEXPECTED_BYTES, "probe %s at %#lx: found %s",
               probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
               hex_bytes(reinterpret_cast<const unsigned char *>(r->site),
                         r->encoding->size)
                   .c_str());
      break;
    }
    if (!write_head(r->site, r->prot, *r->encoding, r->encoding->trap, &e) ||
        e != 0) {
      result = fail(err, XSDT_ERR_PROTECT, "probe %s at %#lx: mprotect: %s",
                    probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
                    std::strerror(e));
      if (holds_trap(*r))
        ++patched; // written, but the protection could not be restored
      break;
    }
  }
  if (result != 0) {
    // All or nothing: put every NOP back, then drop the entries.
    for (std::size_t i = 0; i < patched; ++i) {
      int e = 0;
      write_head(fresh[i]->site, fresh[i]->prot, *fresh[i]->encoding,
                 fresh[i]->encoding->nop, &e);
    }
    g_enabled.store(before, std::memory_order_release);
    return result;
  }
  for (const SiteRecord *r : fresh)
    add_semaphore(r->semaphore, +1);
  g_active = std::move(all);
  clear(err);
  return static_cast<int>(fresh.size());
}

int disable_impl(const char *pattern, xsdt_error *err) {
  Pattern pat;
  if (!parse_pattern(pattern, &pat))
    return fail(err, XSDT_ERR_BAD_PATTERN,
                "pattern '%s' is not 'provider:name' (fnmatch globs)",
                pattern ? pattern : "(null)");
  std::lock_guard<std::mutex> guard(g_lock);
  std::vector<SiteRecord *> going, staying;
  for (SiteRecord *r : g_active)
    (matches(pat, r->provider, r->name) ? going : staying).push_back(r);
  if (going.empty())
    return fail(err, XSDT_ERR_NOT_ENABLED, "no enabled probe matches '%s'",
                pattern);
  for (const SiteRecord *r : going)
    if (!holds_trap(*r))
      return fail(err, XSDT_ERR_UNEXPECTED_BYTES,
                  "probe %s at %#lx: expected the trap, found %s",
                  probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
                  hex_bytes(reinterpret_cast<const unsigned char *>(r->site),
                            r->encoding->size)
                      .c_str());
  std::size_t restored = 0;
  for (; restored < going.size(); ++restored) {
    int e = 0;
    const SiteRecord *r = going[restored];
    if (!write_head(r->site, r->prot, *r->encoding, r->encoding->nop, &e)) {
      // Keep the state consistent: re-arm what was already restored.
      for (std::size_t i = 0; i < restored; ++i) {
        int e2 = 0;
        write_head(going[i]->site, going[i]->prot, *going[i]->encoding,
                   going[i]->encoding->trap, &e2);
      }
      return fail(err, XSDT_ERR_PROTECT, "probe %s at %#lx: mprotect: %s",
                  probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
                  std::strerror(e));
    }
  }
  // The traps are gone; now the entries may go (a handler that already
  // trapped finds the site in the history table and re-executes it).
  g_enabled.store(make_table(staying), std::memory_order_release);
  for (const SiteRecord *r : going)
    add_semaphore(r->semaphore, -1);
  g_active = std::move(staying);
  clear(err);
  return static_cast<int>(going.size());
}

} // namespace
} // namespace xsdt::rt

// ---- C entry points: no exception crosses into C ----------------------------

extern "C" {

int xsdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err) {
  try {
    return xsdt::rt::list_impl(visit, user, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

int xsdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                xsdt_error *err) {
  try {
    return xsdt::rt::enable_impl(pattern, handler, user, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

int xsdt_disable(const char *pattern, xsdt_error *err) {
  try {
    return xsdt::rt::disable_impl(pattern, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

const char *xsdt_status_name(xsdt_status code) {
  switch (code) {
  case XSDT_OK:
    return "XSDT_OK";
  case XSDT_ERR_NO_MATCH:
    return "XSDT_ERR_NO_MATCH";
  case XSDT_ERR_BAD_PATTERN:
    return "XSDT_ERR_BAD_PATTERN";
  case XSDT_ERR_BAD_NOTE:
    return "XSDT_ERR_BAD_NOTE";
  case XSDT_ERR_BAD_SPEC:
    return "XSDT_ERR_BAD_SPEC";
  case XSDT_ERR_UNEXPECTED_BYTES:
    return "XSDT_ERR_UNEXPECTED_BYTES";
  case XSDT_ERR_ALREADY_ENABLED:
    return "XSDT_ERR_ALREADY_ENABLED";
  case XSDT_ERR_NOT_ENABLED:
    return "XSDT_ERR_NOT_ENABLED";
  case XSDT_ERR_PROTECT:
    return "XSDT_ERR_PROTECT";
  case XSDT_ERR_SIGNAL:
    return "XSDT_ERR_SIGNAL";
  case XSDT_ERR_INTERNAL:
    return "XSDT_ERR_INTERNAL";
  case XSDT_ERR_MODE_CONFLICT:
    return "XSDT_ERR_MODE_CONFLICT";
  case XSDT_ERR_BAD_MODE:
    return "XSDT_ERR_BAD_MODE";
  case XSDT_ERR_BAD_OPTION:
    return "XSDT_ERR_BAD_OPTION";
  case XSDT_ERR_BAD_STATE:
    return "XSDT_ERR_BAD_STATE";
  case XSDT_ERR_VERSION:
    return "XSDT_ERR_VERSION";
  }
  return "XSDT_ERR_UNKNOWN";
}

} // extern "C"
