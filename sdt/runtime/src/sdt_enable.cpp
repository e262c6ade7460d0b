// libxsdt, SDT(9) part: enabling and disabling the probes of <xsdt/sdt.h>
// in jump or trap mode, and listing them; the bodies behind the C API of
// <xsdt/sdt-runtime.h> (sdt_api.cpp is its C glue). Apart from the fire
// path, the trap tables and the registry: this is the one part that
// decides what to write, and it runs only under api_lock(). See
// docs/runtime.md ("SDT probes: jump and trap mode").
//
// Concurrency model.
//  * Enable, disable and list serialise on api_lock(), shared with the USDT
//    part, so the two never write code at once.
//  * The fire path (xsdt_sdt_fire(), the out-of-line path of every site)
//    and "no handler after disable returns" are sdt_fire.cpp's.
//  * Traps (trap mode, and the x86 trap-first protocol of jump mode) are
//    looked up by the trap handler in the table both parts share
//    (trap_table.cpp).
#include "sdt_enable.h"

#include "enablings.h"
#include "errors.h"
#include "isa.h"
#include "late_objects.h"
#include "membarrier.h"
#include "patch.h"
#include "probe_description.h"
#include "sdt_fire.h"
#include "sdt_probe.h"
#include "sdt_registry.h"
#include "status.h"
#include "trap.h"
#include "trap_table.h"
#include "xsdt/sdt-runtime.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xsdt::rt {
namespace {

unsigned long addr(std::uintptr_t a) { return static_cast<unsigned long>(a); }

// A write of a site's jump-site bytes, its from and to left to the caller.
CodeWrite site_write(const EnabledSite &s, std::uint32_t tag,
                     std::size_t size) {
  CodeWrite w;
  w.addr = s.site;
  w.encoding = s.encoding;
  w.tag = tag;
  w.prot = static_cast<std::int16_t>(s.prot);
  w.size = static_cast<std::uint8_t>(size);
  return w;
}

// ---- Probe descriptions ----------------------------------------------------

bool matches(const ProbeDescription &d, const SdtProbeEntry &p) {
  return d.matches(p.provider, p.module, p.function, p.name);
}

// Parses pattern into *desc, or fills err and returns -1.
int parse_sdt_pattern(const char *pattern, ProbeDescription *desc,
                      xsdt_error *err) {
  if (const char *why = parse_probe_description(pattern, desc))
    return fail(err, XSDT_ERR_BAD_PATTERN,
                "pattern '%s' is not a probe description "
                "[[[provider:]module:]function:]name of fnmatch globs: %s",
                pattern ? pattern : "(null)", why);
  return 0;
}

// ---- First use -------------------------------------------------------------

bool g_started = false;      // under api_lock()
bool g_serialize_ok = false; // every thread can be serialized
int g_serialize_errno = 0;   // why not

// Once, before the first site is written: the fire path (its barrier mode,
// slot key and fork handler), whether every thread can be serialized, and
// the trap hook.
bool start(xsdt_error *err) {
  if (g_started)
    return true;
  if (!prepare_fire_path(err))
    return false;
  g_serialize_ok = isa::any_jump_needs_trap_first() && membarrier_sync_core();
  g_serialize_errno = errno;
  g_started = true;
  return true;
}

// ---- Jump or trap -----------------------------------------------------------

// Whether jump mode can be written at every site of these probes. A jump
// wider than one store (the trap-first protocol: x86, Thumb's b.w) needs
// every thread serialized between the protocol's steps; without that,
// only trap mode is safe there. A one-store jump (A64, ARM state, ...)
// needs nothing. After start().
bool jump_writable(const std::vector<SdtProbeEntry *> &probes) {
  if (g_serialize_ok)
    return true;
  const Registry &reg = registry();
  for (const SdtProbeEntry *p : probes)
    for (std::uint32_t i : p->registered)
      if (isa::jump_needs_trap_first(*reg.sites[i].encoding))
        return false;
  return true;
}

// The mode an enable in `mode` writes at these probes: AUTO is jump mode
// where it can be written, else trap mode.
xsdt_mode resolve_mode(xsdt_mode mode,
                       const std::vector<SdtProbeEntry *> &probes) {
  if (mode != XSDT_MODE_AUTO)
    return mode;
  return jump_writable(probes) ? XSDT_MODE_JUMP : XSDT_MODE_TRAP;
}

int refuse_jump(xsdt_error *err) {
  return fail(err, XSDT_ERR_BAD_MODE,
              "jump mode needs all threads serialized between writes "
              "(membarrier SYNC_CORE: %s); use trap mode",
              std::strerror(g_serialize_errno));
}

// ---- Enable and disable ----------------------------------------------------

// The current disable's number: it marks the probes that go
// (SdtProbeEntry::batch). Under api_lock().
unsigned long g_batch = 0;

// What every enable and disable needs per site, kept from one call to the
// next (under api_lock(); never destroyed): an enable of 100000 sites
// would otherwise allocate megabytes of temporaries each time and fault
// every page of them in. Each call reserves what it needs before it writes
// anything, so that running out of memory still fails it with nothing
// written.
struct Scratch {
  CodeBatch batch;
  std::vector<TrapEntry> traps;
  std::vector<std::uintptr_t> sites; // whose traps go after the write
  std::vector<SdtProbeEntry *> probes;
};

Scratch &scratch_space() {
  static Scratch *s = new Scratch;
  return *s;
}

// Fills err for a failed write. The batch's tags count the sites of
// `order` in turn, each probe's `sites` (the batch keeps no list of whose
// site each write is: the failure finds it again).
void patch_failure(xsdt_error *err, const PatchFailure &f,
                   const std::vector<SdtProbeEntry *> &order,
                   const char *doing) {
  std::size_t k = f.tag;
  for (const SdtProbeEntry *p : order) {
    if (k < p->sites.size()) {
      fail(err, f.code, "probe %s, site %#lx: %s: %s", p->id.c_str(),
           addr(p->sites[k].site), doing, f.reason.c_str());
      return;
    }
    k -= p->sites.size();
  }
  fail(err, f.code, "%s: %s", doing, f.reason.c_str());
}

// The probes in the order their sites are written: by their first site's
// address. Each probe's sites are sorted and the sites of two probes seldom
// interleave, so the writes come out sorted and the batch need not sort
// them (a sort of 100000 writes costs more than writing them).
template <class FirstSite>
void order_by_first_site(std::vector<SdtProbeEntry *> &probes,
                         FirstSite &&first_site) {
  std::sort(probes.begin(), probes.end(),
            [&](const SdtProbeEntry *a, const SdtProbeEntry *b) {
              return first_site(*a) < first_site(*b);
            });
}

// One probe to enable, and how.
struct Choice {
  SdtProbeEntry *probe;
  xsdt_mode how; // XSDT_MODE_JUMP or XSDT_MODE_TRAP
  xsdt_sdt_handler handler;
  void *user;
};

// Empties the chosen probes' site lists unless the enable went through.
struct SitesUnlessDone {
  const std::vector<Choice> &choices;
  bool done = false;
  ~SitesUnlessDone() {
    if (!done)
      for (const Choice &c : choices)
        c.probe->sites.clear();
  }
};

// Writes every valid site of the chosen probes as one batch, all or
// nothing, then arms them. False with err filled when nothing changed.
bool write_enable(const std::vector<Choice> &choices, xsdt_error *err) {
  Registry &reg = registry();
  Scratch &scratch = scratch_space();
  bool traps = false;
  std::size_t n = 0;
  std::vector<SdtProbeEntry *> &order = scratch.probes;
  order.clear();
  order.reserve(choices.size());
  for (const Choice &c : choices) {
    c.probe->pending = c.how;
    traps = traps || c.how == XSDT_MODE_TRAP;
    n += c.probe->registered.size();
    order.push_back(c.probe);
  }
  order_by_first_site(order, [&](const SdtProbeEntry &p) {
    return p.registered.empty() ? 0 : reg.sites[p.registered[0]].site;
  });

  // What the enable allocates is allocated before the first byte is
  // written: a std::bad_alloc after the write would leave written sites to
  // a probe that is not enabled (lit-tests/faults/oom-while-enabling.test).
  scratch.batch.reserve(n);
  scratch.traps.clear();
  scratch.traps.reserve(n);
  scratch.sites.clear();
  scratch.sites.reserve(n);
  std::vector<std::unique_ptr<Armed>> armed;
  armed.reserve(choices.size());
  for (const Choice &c : choices) {
    SdtProbeEntry *p = c.probe;
    armed.push_back(
        std::make_unique<Armed>(Armed{c.handler, c.user, &p->info}));
    p->sites.clear();
    p->sites.reserve(p->registered.size());
  }
  reg.enabled.reserve(reg.enabled.size() + choices.size());

  // Every valid site of the chosen probes, written as one batch. The
  // probes' site lists are filled on the way (sorted, as registered), and
  // emptied again unless the enable goes through.
  SitesUnlessDone sites_guard{choices};
  const std::size_t size = isa::jump_site_size();
  std::uint32_t tag = 0;
  for (SdtProbeEntry *p : order) {
    for (std::uint32_t i : p->registered) {
      const RegisteredSite &s = reg.sites[i];
      const EnabledSite site{s.site, s.target, s.prot, s.encoding};
      CodeWrite w = site_write(site, tag++, size);
      if (!isa::jump_site_nop(*s.encoding, s.site, s.target, w.from) ||
          !isa::enabled_jump_site(p->pending == XSDT_MODE_JUMP, *s.encoding,
                                  s.site, s.target, w.to)) {
        fail(err, XSDT_ERR_INTERNAL,
             "probe %s, site %#lx: target %#lx out of the jump's reach",
             p->id.c_str(), addr(s.site), addr(s.target));
        return false;
      }
      // A trap at a site resumes at its out-of-line block: trap mode, and
      // the trap-first protocol's trap while a jump to that block is
      // written.
      traps = traps || isa::jump_needs_trap_first(*s.encoding);
      scratch.traps.push_back(TrapEntry{s.site, s.target});
      scratch.batch.add(w);
      p->sites.push_back(site);
    }
  }
  scratch.batch.prepare();
  if (traps && n != 0) {
    if (install_sigtrap_handler(err) != 0)
      return false;
    add_traps(scratch.traps);
  }

  PatchFailure failure;
  const bool written = scratch.batch.apply(&failure);
  if (traps && n != 0) {
    // The sites that hold no trap after the write: all of them when it
    // failed (restored), the jumps when it worked.
    for (const SdtProbeEntry *p : order)
      if (!written || p->pending == XSDT_MODE_JUMP)
        for (const EnabledSite &e : p->sites)
          scratch.sites.push_back(e.site);
    remove_traps_if_memory(scratch.sites);
  }
  if (!written) {
    patch_failure(err, failure, order, "enable");
    return false;
  }

  sites_guard.done = true;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    SdtProbeEntry *p = choices[i].probe;
    p->mode = choices[i].how;
    p->armed = armed[i].release();
    reg.enabled.push_back(p);
    __atomic_store_n(&p->probe->runtime, static_cast<void *>(p->armed),
                     __ATOMIC_RELEASE);
  }
  return true;
}

// Puts the NOP back at every site of the probes in `going`, waits until no
// handler of theirs runs, and drops them from the enabled list. False with
// err filled when nothing changed.
bool write_disable(const std::vector<SdtProbeEntry *> &going, xsdt_error *err) {
  Registry &reg = registry();
  Scratch &scratch = scratch_space();
  std::vector<SdtProbeEntry *> &order = scratch.probes;
  order.assign(going.begin(), going.end());
  order_by_first_site(order, [](const SdtProbeEntry &p) {
    return p.sites.empty() ? 0 : p.sites[0].site;
  });
  std::size_t n = 0;
  for (const SdtProbeEntry *p : going)
    n += p->sites.size();
  // Allocated before the write, as in enable: after it, running out of
  // memory would leave restored sites to probes still enabled.
  scratch.batch.reserve(n);
  scratch.traps.clear();
  scratch.traps.reserve(n);
  scratch.sites.clear();
  scratch.sites.reserve(n);
  ++g_batch; // marks the probes that go
  for (SdtProbeEntry *p : going)
    p->batch = g_batch;
  std::vector<SdtProbeEntry *> staying;
  staying.reserve(reg.enabled.size());
  for (SdtProbeEntry *p : reg.enabled)
    if (p->batch != g_batch)
      staying.push_back(p);

  // While a jump is turned back into the NOP, a trap at it skips the site.
  // Trap-mode sites keep their entries (resume at the block) until their
  // traps are gone.
  const std::size_t size = isa::jump_site_size();
  std::uint32_t tag = 0;
  for (const SdtProbeEntry *p : order) {
    for (const EnabledSite &s : p->sites) {
      CodeWrite w = site_write(s, tag++, size);
      // In reach: it was written so.
      isa::enabled_jump_site(p->mode == XSDT_MODE_JUMP, *s.encoding, s.site,
                             s.target, w.from);
      isa::jump_site_nop(*s.encoding, s.site, s.target, w.to);
      scratch.batch.add(w);
      if (p->mode == XSDT_MODE_JUMP && isa::jump_needs_trap_first(*s.encoding))
        scratch.traps.push_back(TrapEntry{s.site, s.site + size});
    }
  }
  // Those traps need libxsdt's handler: a program that replaced it would
  // get them instead.
  if (!scratch.traps.empty() && check_trap_handler(err) != 0)
    return false;
  scratch.batch.prepare();
  add_traps(scratch.traps);
  PatchFailure failure;
  const bool written = scratch.batch.apply(&failure);
  if (!written) {
    // Nothing changed: every site holds what it held (jumps or traps).
    for (const TrapEntry &e : scratch.traps)
      scratch.sites.push_back(e.site);
    remove_traps_if_memory(scratch.sites);
    patch_failure(err, failure, order, "disable");
    return false;
  }
  for (const SdtProbeEntry *p : order)
    for (const EnabledSite &s : p->sites)
      scratch.sites.push_back(s.site);
  remove_traps_if_memory(scratch.sites);

  // No site jumps or traps to the handlers any more; now make sure that no
  // thread is still on its way into one.
  for (SdtProbeEntry *p : going)
    __atomic_store_n(&p->probe->runtime, nullptr, __ATOMIC_SEQ_CST);
  wait_for_handlers();
  for (SdtProbeEntry *p : going) {
    delete p->armed; // no thread can still read it
    p->armed = nullptr;
    p->mode = XSDT_MODE_AUTO;
    p->sites.clear();
  }
  reg.enabled = std::move(staying);
  return true;
}

// ---- Objects loaded and unloaded after an enable (late_objects.h) ----------

struct SdtEnabling {
  ProbeDescription desc;
  xsdt_mode mode; // as asked: AUTO is resolved per object
  xsdt_sdt_handler handler;
  void *user;
};

// Under api_lock(); never destroyed: destructors of objects run at exit.
Enablings<SdtEnabling> &g_sdt_enablings = *new Enablings<SdtEnabling>;
void sync_sdt(const ObjectKey *fresh);
void unloading_sdt(const ObjectSpan &object);
const ObjectListener kSdtListener{sync_sdt, unloading_sdt};
LateObjects &g_sdt_late = *new LateObjects(&kSdtListener);

// Enables what the enablings in force say at the probes of a new object,
// all or nothing; a failure is kept for xsdt_late_error().
void apply_to_object(const ObjectSpan &object) {
  Registry &reg = registry();
  std::vector<Choice> choices;
  bool refused = false;
  for (SdtProbeEntry *p : reg.probes) {
    if (p->mode != XSDT_MODE_AUTO ||
        !object.contains(reinterpret_cast<std::uintptr_t>(p->probe)))
      continue;
    const auto *e = g_sdt_enablings.find([&](const std::string &text) {
      ProbeDescription d;
      return !parse_probe_description(text.c_str(), &d) && matches(d, *p);
    });
    if (!e)
      continue;
    const xsdt_mode how = resolve_mode(e->payload.mode, {p});
    if (how == XSDT_MODE_JUMP && !jump_writable({p})) {
      refused = true;
      continue;
    }
    choices.push_back(Choice{p, how, e->payload.handler, e->payload.user});
  }
  xsdt_error err;
  if (refused) {
    // All or nothing per object, like a failed write.
    refuse_jump(&err);
    choices.clear();
  }
  if (refused || (!choices.empty() && !write_enable(choices, &err))) {
    xsdt_error late;
    fail(&late, err.code, "%s: %s",
         object.key.name.empty() ? "(main program)" : object.key.name.c_str(),
         err.message);
    note_late_error(late);
  }
}

void sync_sdt(const ObjectKey *fresh) {
  Registry &reg = registry();
  const std::vector<SdtProbeEntry *> before = reg.enabled;
  refresh(); // forgets the enabled probes of objects gone or loaded again
  // The objects of the probes refresh() forgot that are still mapped were
  // loaded again.
  auto reloaded = [&](const std::vector<ObjectSpan> &now) {
    std::set<ObjectKey> keys;
    for (SdtProbeEntry *p : before)
      if (std::find(reg.enabled.begin(), reg.enabled.end(), p) ==
          reg.enabled.end())
        if (const ObjectSpan *s =
                span_holding(now, reinterpret_cast<std::uintptr_t>(p->probe)))
          keys.insert(s->key);
    return keys;
  };
  g_sdt_late.sync(
      fresh, reloaded, [] { return !g_sdt_enablings.empty(); },
      apply_to_object);
}

// The object's destructor runs: its enabled probes are disabled (the code
// is still mapped, and at exit other threads may still run it) and its
// probes leave the registry.
void unloading_sdt(const ObjectSpan &object) {
  Registry &reg = registry();
  auto inside = [&](const SdtProbeEntry *p) {
    return object.contains(reinterpret_cast<std::uintptr_t>(p->probe));
  };
  std::vector<SdtProbeEntry *> going;
  std::vector<std::uintptr_t> sites;
  for (SdtProbeEntry *p : reg.enabled)
    if (inside(p)) {
      going.push_back(p);
      for (const EnabledSite &s : p->sites)
        sites.push_back(s.site);
    }
  g_sdt_late.dying(object.key, sites);
  xsdt_error err;
  if (!going.empty() && !write_disable(going, &err)) {
    xsdt_error late;
    fail(&late, err.code, "unloading %s: %s", object.key.name.c_str(),
         err.message);
    note_late_error(late);
  }
  std::erase_if(reg.probes, inside);
  std::erase_if(reg.sites,
                [&](const RegisteredSite &s) { return inside(s.probe); });
  index_sites(); // the indices moved (shrinking: no allocation)
}

} // namespace

int sdt_enable(const char *pattern, xsdt_mode mode, xsdt_sdt_handler handler,
               void *user, xsdt_error *err) {
  ProbeDescription desc;
  if (parse_sdt_pattern(pattern, &desc, err) != 0)
    return -1;
  if (mode != XSDT_MODE_AUTO && mode != XSDT_MODE_JUMP &&
      mode != XSDT_MODE_TRAP)
    return fail(err, XSDT_ERR_BAD_MODE, "unknown mode %d",
                static_cast<int>(mode));
  if (!handler)
    return fail(err, XSDT_ERR_INTERNAL, "no handler given");

  std::lock_guard<std::mutex> guard(api_lock());
  sync_objects();
  g_sdt_late.start_listening();
  refresh();
  Registry &reg = registry();
  std::vector<SdtProbeEntry *> chosen;
  for (SdtProbeEntry *p : reg.probes)
    if (matches(desc, *p))
      chosen.push_back(p);
  if (chosen.empty())
    return fail(err, XSDT_ERR_NO_MATCH, "no SDT probe matches '%s'", pattern);
  if (!start(err))
    return -1;

  const xsdt_mode how = resolve_mode(mode, chosen);
  if (how == XSDT_MODE_JUMP && !jump_writable(chosen))
    return refuse_jump(err);
  for (const SdtProbeEntry *p : chosen) {
    if (p->mode == how)
      return fail(err, XSDT_ERR_ALREADY_ENABLED,
                  "probe %s is already enabled (%s mode)", p->id.c_str(),
                  mode_name(p->mode));
    if (p->mode != XSDT_MODE_AUTO)
      return fail(err, XSDT_ERR_MODE_CONFLICT,
                  "probe %s is enabled in %s mode (%zu sites, first at "
                  "%#lx): disable it before enabling it in %s mode",
                  p->id.c_str(), mode_name(p->mode), p->sites.size(),
                  addr(p->sites.empty() ? 0 : p->sites[0].site),
                  mode_name(how));
  }

  std::vector<Choice> choices;
  for (SdtProbeEntry *p : chosen)
    choices.push_back(Choice{p, how, handler, user});
  // Recorded first: nothing may fail once the sites are written.
  g_sdt_enablings.enable(pattern, SdtEnabling{desc, mode, handler, user});
  if (!write_enable(choices, err)) {
    g_sdt_enablings.withdraw_last();
    return -1;
  }
  clear(err);
  return static_cast<int>(chosen.size());
}

int sdt_disable(const char *pattern, xsdt_error *err) {
  ProbeDescription desc;
  if (parse_sdt_pattern(pattern, &desc, err) != 0)
    return -1;
  std::lock_guard<std::mutex> guard(api_lock());
  sync_objects();
  refresh(); // forgets the probes of unloaded objects: their code is gone
  Registry &reg = registry();
  std::vector<SdtProbeEntry *> going;
  for (SdtProbeEntry *p : reg.enabled)
    if (matches(desc, *p))
      going.push_back(p);
  // Objects loaded later see this disable whether or not it found an
  // enabled probe now (they would have had one).
  const bool everything = matches_everything(desc);
  if (going.empty()) {
    g_sdt_enablings.disable(pattern, everything);
    return fail(err, XSDT_ERR_NOT_ENABLED, "no enabled SDT probe matches '%s'",
                pattern);
  }
  // Allocated before the write: nothing may fail after it.
  std::string disabled(pattern);
  g_sdt_enablings.reserve_disable();
  if (!write_disable(going, err))
    return -1;
  g_sdt_enablings.disable(std::move(disabled), everything);
  clear(err);
  return static_cast<int>(going.size());
}

// ---- Listing (visitors run without the lock, so they may enable) -----------

int sdt_list(xsdt_sdt_probe_visitor visit, void *user, xsdt_error *err) {
  std::vector<const xsdt_sdt_probe_info *> infos;
  {
    std::lock_guard<std::mutex> guard(api_lock());
    sync_objects();
    refresh();
    for (const SdtProbeEntry *p : registry().probes)
      infos.push_back(&p->info); // never freed
  }
  clear(err);
  if (visit)
    for (const xsdt_sdt_probe_info *info : infos)
      visit(info, user);
  return static_cast<int>(infos.size());
}

int sdt_list_sites(xsdt_sdt_site_visitor visit, void *user, xsdt_error *err) {
  std::vector<RegisteredSite> sites;
  std::vector<xsdt_mode> states;
  {
    std::lock_guard<std::mutex> guard(api_lock());
    sync_objects();
    refresh();
    sites = registry().sites;
    for (const RegisteredSite &s : sites)
      states.push_back(enabled_at(*s.probe, s.site) ? s.probe->mode
                                                    : XSDT_MODE_AUTO);
  }
  clear(err);
  for (std::size_t i = 0; visit && i < sites.size(); ++i) {
    const RegisteredSite &s = sites[i];
    xsdt_sdt_site_info info{&s.probe->info, s.site, s.target,
                            s.function.c_str(), states[i]};
    visit(&info, user);
  }
  return static_cast<int>(sites.size());
}

int sdt_list_invalid(xsdt_sdt_invalid_visitor visit, void *user,
                     xsdt_error *err) {
  std::vector<std::string> invalid;
  {
    std::lock_guard<std::mutex> guard(api_lock());
    sync_objects();
    refresh();
    invalid = registry().invalid;
  }
  clear(err);
  if (visit)
    for (const std::string &message : invalid)
      visit(message.c_str(), user);
  return static_cast<int>(invalid.size());
}

} // namespace xsdt::rt
