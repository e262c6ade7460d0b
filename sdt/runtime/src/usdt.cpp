// libxsdt, USDT part: the probes of stapsdt notes, enabled in trap mode.
// It holds the enabled sites' records, what a hit runs, the site bytes and
// semaphores, and the bodies of list, enable and disable (usdt.h). Its
// traps are entries of the trap table both parts share (trap_table.h):
// each names the site's record and usdt_hit, which the trap handler runs.
// See docs/runtime.md.
//
// Concurrency model. Enable, disable and list of both parts serialise on
// one mutex (api_lock()). The trap handler never locks or allocates: it
// looks the site up in the trap table. An entry is published before its
// trap is written (so every trap finds it) and withdrawn after the trap is
// removed (so it outlives its trap). Site records are never freed, because
// a handler on another thread may still be reading one; that leak is
// bounded by the enable/disable calls.
#include "usdt.h"

#include "enablings.h"
#include "errors.h"
#include "internal.h"
#include "isa.h"
#include "late_objects.h"
#include "machdep.h"
#include "patch.h"
#include "probe_description.h"
#include "safe_read.h"
#include "sdt_fire.h"
#include "trap.h"
#include "trap_table.h"
#include "usdt_jump.h"
#include "xsdt/argeval.h"
#include "xsdt/argspec.h"
#include "xsdt/byte_order.h"
#include "xsdt/hex_text.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
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
  const SiteEncoding *encoding = nullptr;
  std::string provider, name, args, object;
  xsdt_probe_info info{};
  xsdt_probe_info jump_info{}; // info with jumped = 1, for the jump hits
  int argc = 0;
  CompiledArg compiled[XSDT_MAX_ARGS];
  xsdt_probe_handler handler = nullptr;
  void *user = nullptr;
  // Jump mode was asked for; and the site's cell when the site jumps
  // (usdt_jump.h), else null: the site traps.
  bool want_jump = false;
  UsdtJumpCell *cell = nullptr;
};

// Under api_lock(): the enabled sites. Never destroyed: objects'
// destructors may unload probes during exit.
std::vector<SiteRecord *> &g_active = *new std::vector<SiteRecord *>;

// ---- Patterns: "provider:name" (probe_description.h) -----------------------

bool matches(const ProbeDescription &p, const std::string &provider,
             const std::string &name) {
  static const std::string kAny; // USDT probes have no module or function
  return p.matches(provider, kAny, kAny, name);
}

// Parses pattern into *p, or fills err and returns -1.
int parse_pattern(const char *pattern, ProbeDescription *p, xsdt_error *err) {
  if (const char *why = parse_usdt_pattern(pattern, p))
    return fail(err, XSDT_ERR_BAD_PATTERN,
                "pattern '%s' is not 'provider:name' (fnmatch globs): %s",
                pattern ? pattern : "(null)", why);
  return 0;
}

// ---- A trap at a site (the trap table's entry runs it) -------------------

// Reads the arguments from the registers of a hit and runs the probe's
// handler. On the hitting thread, in signal context (trap mode) or not
// (jump mode): no lock, no allocation.
void run_handler(const SiteRecord *r, const xsdt_probe_info *info,
                 const RegisterFile &regs) {
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
  r->handler(info, r->argc, args, r->user);
}

void usdt_hit(const void *data, void *uc) {
  RegisterFile regs{}; // the slots of no register of the arch stay 0
  machdep::fill_registers(uc, &regs);
  const auto *r = static_cast<const SiteRecord *>(data);
  run_handler(r, &r->info, regs);
}

// A jump-mode hit, from the stub's entry with the registers it saved.
void usdt_jump_run(const void *data, RegisterFile *regs) {
  static const int saved = usdt_jump_saved_registers();
  for (int i = saved; i < kRegisterFileSize; ++i)
    regs->regs[i] = 0; // as in trap mode
  const auto *r = static_cast<const SiteRecord *>(data);
  run_handler(r, &r->jump_info, *regs);
}

// The trap table's entry of an enabled site: its hit, then past the site;
// in jump mode, on to the stub (while the trap-first protocol writes it).
TrapEntry trap_entry(const SiteRecord &r) {
  if (r.cell)
    return usdt_jump_trap_entry(*r.cell);
  return TrapEntry{r.site, r.site + r.encoding->nop.size(), usdt_hit, &r};
}

std::vector<std::uintptr_t> sites_of(const std::vector<SiteRecord *> &recs) {
  std::vector<std::uintptr_t> sites;
  sites.reserve(recs.size());
  for (const SiteRecord *r : recs)
    sites.push_back(trap_entry(*r).site);
  return sites;
}

// ---- USDT trap mode --------------------------------------------------------

// A write that turns a site's NOP into its trap, or its branch in jump
// mode (or back, with `set` false).
CodeWrite trap_write(const SiteRecord &r, bool set, std::size_t tag) {
  if (r.cell)
    return usdt_jump_write(*r.cell, set, r.prot, tag);
  CodeWrite w;
  w.addr = r.site;
  w.size = r.encoding->nop.size();
  unsigned char *nop = set ? w.from : w.to, *trap = set ? w.to : w.from;
  std::memcpy(nop, r.encoding->nop.data(), w.size);
  isa::trapped_site(*r.encoding, nop, w.size, trap);
  w.prot = r.prot;
  w.tag = tag;
  w.encoding = r.encoding;
  return w;
}

// Whether the site holds what enabling wrote: its trap, or its branch.
bool holds_trap(const SiteRecord &r) {
  const CodeWrite w = trap_write(r, true, 0);
  return std::memcmp(reinterpret_cast<const void *>(w.addr), w.to, w.size) == 0;
}

// Withdraws the records of jump-mode sites from their cells, once their
// branches are gone; with `wait`, returns when no handler of theirs runs.
void disarm(const std::vector<SiteRecord *> &recs, bool wait) {
  bool any = false;
  for (const SiteRecord *r : recs)
    if (r->cell) {
      __atomic_store_n(&r->cell->armed, nullptr, __ATOMIC_SEQ_CST);
      any = true;
    }
  if (any && wait)
    wait_for_handlers();
}

// The encoding the site holds now, or null for foreign bytes.
const SiteEncoding *match_encoding(std::uintptr_t site) {
  for (const SiteEncoding &encoding : isa::site_encodings())
    if (std::memcmp(reinterpret_cast<const void *>(site), encoding.nop.data(),
                    encoding.nop.size()) == 0)
      return &encoding;
  return nullptr;
}

// "0f 1f 44 00 00 (5-byte nopl) or 90 (1-byte nop (sys/sdt.h))".
std::string expected_encodings() {
  std::string text;
  for (const SiteEncoding &encoding : isa::site_encodings()) {
    if (!text.empty())
      text += " or ";
    text += hex_bytes(encoding.nop.data(), encoding.nop.size()) + " (" +
            encoding.what + ")";
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
  // The counter's half of the word: the low one at an address that is a
  // multiple of 4 on a little-endian arch, the high one on a big-endian.
  const unsigned low_half = kNativeByteOrder == ByteOrder::kBig ? 2 : 0;
  unsigned shift = static_cast<unsigned>((addr & 2) ^ low_half) * 8;
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

// ---- Enabling sites --------------------------------------------------------

// Until published, records are owned by their vector.
struct Owner {
  std::vector<SiteRecord *> *v;
  bool keep = false;
  ~Owner() {
    if (!keep)
      for (SiteRecord *r : *v)
        delete r;
  }
};

// A record for site s with its compiled arguments, or null and err.
SiteRecord *make_record(const ProbeSite &s, xsdt_probe_handler handler,
                        void *user, bool want_jump,
                        std::vector<SiteRecord *> &fresh, xsdt_error *err) {
  const Arch arch = machdep::arch();
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
  rec->want_jump = want_jump;
  auto locs = parse_arg_specs(s.args, arch);
  if (!locs) {
    fail(err, XSDT_ERR_BAD_SPEC, "probe %s:%s at %#lx: %s", s.provider.c_str(),
         s.name.c_str(), static_cast<unsigned long>(s.pc),
         locs.error().to_string().c_str());
    return nullptr;
  }
  rec->argc = static_cast<int>(locs->size());
  for (std::size_t i = 0; i < locs->size(); ++i) {
    auto c = compile_arg((*locs)[i], arch);
    if (!c) {
      fail(err, XSDT_ERR_BAD_SPEC, "probe %s:%s at %#lx, argument %zu: %s",
           s.provider.c_str(), s.name.c_str(), static_cast<unsigned long>(s.pc),
           i + 1, c.error().to_string().c_str());
      return nullptr;
    }
    rec->compiled[i] = c.value();
  }
  rec->info = xsdt_probe_info{rec->provider.c_str(),
                              rec->name.c_str(),
                              rec->args.c_str(),
                              rec->object.c_str(),
                              rec->site,
                              rec->semaphore,
                              rec->argc,
                              0};
  rec->jump_info = rec->info;
  rec->jump_info.jumped = 1;
  return rec;
}

bool is_active(std::uintptr_t site) {
  for (const SiteRecord *r : g_active)
    if (r->site == site)
      return true;
  return false;
}

// Writes the traps of fresh records, all or nothing: checks every site,
// publishes the entries, writes one batch, counts the semaphores. On
// failure nothing is patched and 0 is returned with err filled.
bool set_traps(Owner &owner, xsdt_error *err) {
  std::vector<SiteRecord *> &fresh = *owner.v;
  // Check every site before touching any, so that a foreign site leaves
  // nothing patched.
  std::size_t longest = 0;
  for (const SiteEncoding &encoding : isa::site_encodings())
    longest = std::max(longest, encoding.nop.size());
  for (SiteRecord *r : fresh) {
    r->encoding = match_encoding(r->site);
    if (!r->encoding) {
      fail(err, XSDT_ERR_UNEXPECTED_BYTES,
           "probe %s at %#lx: expected %s, found %s", probe_name(*r).c_str(),
           static_cast<unsigned long>(r->site), expected_encodings().c_str(),
           hex_bytes(reinterpret_cast<const unsigned char *>(r->site), longest)
               .c_str());
      return false;
    }
  }

  if (install_sigtrap_handler(err) != 0)
    return false;
  // Jump mode where the site and the arch allow it; trap mode elsewhere.
  for (SiteRecord *r : fresh)
    if (r->want_jump && usdt_site_can_jump(r->encoding))
      r->cell = usdt_jump_cell(r->site, usdt_jump_run);

  // One batch: re-checks every NOP right before its write, and puts every
  // NOP back if anything fails (all or nothing). Allocated before the
  // entries are published: after that, running out of memory would leave
  // them published for good.
  std::vector<CodeWrite> writes;
  for (std::size_t i = 0; i < fresh.size(); ++i)
    writes.push_back(trap_write(*fresh[i], true, i));
  CodeBatch batch(std::move(writes));

  // Publish the entries before the traps exist.
  std::vector<SiteRecord *> all = g_active;
  all.insert(all.end(), fresh.begin(), fresh.end());
  std::vector<TrapEntry> entries;
  entries.reserve(fresh.size());
  for (const SiteRecord *r : fresh)
    entries.push_back(trap_entry(*r));
  std::vector<std::uintptr_t> written = sites_of(fresh);
  add_traps(entries);
  owner.keep = true; // published: a handler may hold them from now on
  for (const SiteRecord *r : fresh)
    if (r->cell)
      __atomic_store_n(&r->cell->armed, r, __ATOMIC_RELEASE);

  PatchFailure failure;
  if (!batch.apply(&failure)) {
    disarm(fresh, true);
    remove_traps_if_memory(written); // every site holds its NOP again
    const SiteRecord &r = *fresh[failure.tag];
    fail(err, failure.code, "probe %s at %#lx: %s", probe_name(r).c_str(),
         static_cast<unsigned long>(r.site), failure.reason.c_str());
    return false;
  }
  for (const SiteRecord *r : fresh)
    add_semaphore(r->semaphore, +1);
  g_active = std::move(all);
  return true;
}

// ---- Objects loaded and unloaded after an enable (late_objects.h) ----------

struct UsdtEnabling {
  ProbeDescription pattern;
  xsdt_probe_handler handler = nullptr;
  void *user = nullptr;
  bool jump = false;
};

// Under api_lock(); never destroyed (see g_active).
Enablings<UsdtEnabling> &g_enablings = *new Enablings<UsdtEnabling>;
void sync_usdt(const ObjectKey *fresh);
void unloading_usdt(const ObjectSpan &object);
const ObjectListener kUsdtListener{sync_usdt, unloading_usdt};
LateObjects &g_late = *new LateObjects(&kUsdtListener);

// Forgets records without touching code or semaphores (their object is
// gone, or was loaded again and holds the NOP).
void forget(const std::vector<SiteRecord *> &gone) {
  if (gone.empty())
    return;
  std::vector<SiteRecord *> staying;
  for (SiteRecord *r : g_active)
    if (std::find(gone.begin(), gone.end(), r) == gone.end())
      staying.push_back(r);
  disarm(gone, false); // their code is gone or holds the NOP again
  std::vector<std::uintptr_t> sites = sites_of(gone);
  remove_traps(sites);
  forget_trap_history(sites);
  g_active = std::move(staying);
}

// Applies the enablings in force to the probes of one new object, all or
// nothing; a failure is kept for xsdt_late_error().
void apply_to_object(const ObjectSpan &object,
                     const std::vector<ProbeSite> &sites) {
  std::vector<SiteRecord *> fresh;
  Owner owner{&fresh};
  xsdt_error err;
  for (const ProbeSite &s : sites) {
    if (!object.contains(s.pc) || is_active(s.pc))
      continue;
    bool duplicate = false;
    for (const SiteRecord *r : fresh)
      duplicate = duplicate || r->site == s.pc;
    if (duplicate)
      continue;
    const auto *e = g_enablings.find([&](const std::string &text) {
      ProbeDescription p;
      return !parse_usdt_pattern(text.c_str(), &p) &&
             matches(p, s.provider, s.name);
    });
    if (!e)
      continue;
    if (!make_record(s, e->payload.handler, e->payload.user, e->payload.jump,
                     fresh, &err)) {
      note_late_error(err);
      return;
    }
  }
  if (!fresh.empty() && !set_traps(owner, &err))
    note_late_error(err);
}

void sync_usdt(const ObjectKey *fresh) {
  // Records of objects that are gone, or loaded again (the site holds the
  // NOP, not our trap): nothing of theirs is ours to restore.
  auto forget_gone = [](const std::vector<ObjectSpan> &now) {
    std::vector<SiteRecord *> gone;
    std::set<ObjectKey> reloaded;
    for (SiteRecord *r : g_active) {
      const ObjectSpan *s = span_holding(now, r->site);
      if (!s) {
        gone.push_back(r);
      } else if (!holds_trap(*r)) {
        gone.push_back(r);
        reloaded.insert(s->key);
      }
    }
    forget(gone);
    return reloaded;
  };
  // The notes are read once for all the objects that arrived.
  std::vector<ProbeSite> sites;
  bool discovered = false;
  g_late.sync(
      fresh, forget_gone, [] { return !g_enablings.empty(); },
      [&](const ObjectSpan &object) {
        if (!discovered)
          sites = discover_probes();
        discovered = true;
        apply_to_object(object, sites);
      });
}

// The object's destructor runs: its traps are put back to the NOP (the code
// is still mapped, and at exit other threads may still run it), its
// semaphores counted down, its records dropped.
void unloading_usdt(const ObjectSpan &object) {
  std::vector<SiteRecord *> going, staying;
  for (SiteRecord *r : g_active)
    (object.contains(r->site) ? going : staying).push_back(r);
  std::vector<std::uintptr_t> sites = sites_of(going);
  g_late.dying(object.key, sites);
  if (going.empty())
    return;
  std::vector<CodeWrite> writes;
  for (std::size_t i = 0; i < going.size(); ++i)
    if (holds_trap(*going[i]))
      writes.push_back(trap_write(*going[i], false, i));
  PatchFailure failure;
  if (!apply_code_writes(std::move(writes), &failure)) {
    const SiteRecord &r = *going[failure.tag];
    xsdt_error err;
    fail(&err, failure.code, "unloading %s: probe %s at %#lx: %s",
         object.key.name.c_str(), probe_name(r).c_str(),
         static_cast<unsigned long>(r.site), failure.reason.c_str());
    note_late_error(err);
  }
  disarm(going, true);
  remove_traps_if_memory(sites);
  for (const SiteRecord *r : going)
    add_semaphore(r->semaphore, -1);
  g_active = std::move(staying);
}

} // namespace

// ---- The API bodies (usdt.h) --------------------------------------------

int usdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err) {
  // The visitors run without the lock, as the SDT part's do, so that a
  // visitor may enable and disable probes.
  std::vector<ProbeSite> sites;
  {
    std::lock_guard<std::mutex> guard(api_lock());
    sync_objects();
    sites = discover_probes();
  }
  clear(err);
  for (const ProbeSite &s : sites) {
    if (!visit)
      continue;
    xsdt_probe_info info{s.provider.c_str(),
                         s.name.c_str(),
                         s.args.c_str(),
                         s.object.c_str(),
                         s.pc,
                         s.semaphore,
                         s.argc < 0 ? 0 : s.argc,
                         0};
    visit(&info, user);
  }
  return static_cast<int>(sites.size());
}

int usdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                bool jump, xsdt_error *err) {
  ProbeDescription pat;
  if (parse_pattern(pattern, &pat, err) != 0)
    return -1;
  if (!handler)
    return fail(err, XSDT_ERR_INTERNAL, "no handler given");

  std::lock_guard<std::mutex> guard(api_lock());
  sync_objects();
  g_late.start_listening();
  std::vector<ProbeSite> sites = discover_probes();
  std::vector<SiteRecord *> fresh;
  Owner owner{&fresh};

  for (const ProbeSite &s : sites) {
    if (!matches(pat, s.provider, s.name))
      continue;
    bool duplicate = false;
    for (const SiteRecord *r : fresh)
      duplicate = duplicate || r->site == s.pc;
    if (duplicate)
      continue; // two notes for one site: one trap serves both
    if (is_active(s.pc))
      return fail(err, XSDT_ERR_ALREADY_ENABLED,
                  "probe %s:%s at %#lx is already enabled", s.provider.c_str(),
                  s.name.c_str(), static_cast<unsigned long>(s.pc));
    if (!make_record(s, handler, user, jump, fresh, err))
      return -1;
  }
  if (fresh.empty())
    return fail(err, XSDT_ERR_NO_MATCH, "no probe matches '%s'", pattern);
  // Recorded first: nothing may fail once the traps are written.
  g_enablings.enable(pattern, UsdtEnabling{pat, handler, user, jump});
  if (!set_traps(owner, err)) {
    g_enablings.withdraw_last();
    return -1;
  }
  clear(err);
  return static_cast<int>(fresh.size());
}

int usdt_disable(const char *pattern, xsdt_error *err) {
  ProbeDescription pat;
  if (parse_pattern(pattern, &pat, err) != 0)
    return -1;
  std::lock_guard<std::mutex> guard(api_lock());
  sync_objects();
  std::vector<SiteRecord *> going, staying;
  for (SiteRecord *r : g_active)
    (matches(pat, r->provider, r->name) ? going : staying).push_back(r);
  // Objects loaded later see this disable whether or not it found an
  // enabled probe now (they would have had one).
  const bool everything = matches_everything(pat);
  if (going.empty()) {
    g_enablings.disable(pattern, everything);
    return fail(err, XSDT_ERR_NOT_ENABLED, "no enabled probe matches '%s'",
                pattern);
  }
  for (const SiteRecord *r : going)
    if (!holds_trap(*r))
      return fail(err, XSDT_ERR_UNEXPECTED_BYTES,
                  "probe %s at %#lx: expected the trap, found %s",
                  probe_name(*r).c_str(), static_cast<unsigned long>(r->site),
                  hex_bytes(reinterpret_cast<const unsigned char *>(r->site),
                            r->encoding->nop.size())
                      .c_str());
  std::vector<CodeWrite> writes;
  for (std::size_t i = 0; i < going.size(); ++i)
    writes.push_back(trap_write(*going[i], false, i));
  // Allocated before the write: after it, running out of memory would
  // leave restored sites to probes still enabled.
  std::vector<std::uintptr_t> sites = sites_of(going);
  std::string disabled(pattern);
  g_enablings.reserve_disable();
  PatchFailure failure;
  if (!apply_code_writes(std::move(writes), &failure)) {
    // Nothing changed: every trap written back is armed again.
    const SiteRecord &r = *going[failure.tag];
    return fail(err, failure.code, "probe %s at %#lx: %s",
                probe_name(r).c_str(), static_cast<unsigned long>(r.site),
                failure.reason.c_str());
  }
  // The traps and branches are gone: no handler runs once the jump-mode
  // sites' records are withdrawn and the handlers in flight are done; then
  // the entries may go (a handler that already trapped finds the site in
  // the history and re-executes it).
  disarm(going, true);
  remove_traps_if_memory(sites);
  for (const SiteRecord *r : going)
    add_semaphore(r->semaphore, -1);
  g_active = std::move(staying);
  g_enablings.disable(std::move(disabled), everything);
  clear(err);
  return static_cast<int>(going.size());
}

} // namespace xsdt::rt
