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
//    looked up by the trap handler in the tables of sdt_traps.cpp.
#include "sdt_enable.h"

#include "errors.h"
#include "isa.h"
#include "machdep.h"
#include "patch.h"
#include "probe_description.h"
#include "sdt_fire.h"
#include "sdt_probe.h"
#include "sdt_registry.h"
#include "sdt_traps.h"
#include "status.h"
#include "trap.h"
#include "xsdt/sdt-runtime.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fnmatch.h>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xsdt::rt {
namespace {

unsigned long addr(std::uintptr_t a) { return static_cast<unsigned long>(a); }

// ---- Probe descriptions ----------------------------------------------------

bool matches(const ProbeDescription &d, const SdtProbeEntry &p) {
  return d.matches(p.provider, p.module, p.function, p.name);
}

// Parses pattern into *desc, or fills err and returns -1.
int parse_pattern(const char *pattern, ProbeDescription *desc,
                  xsdt_error *err) {
  if (const char *why = parse_probe_description(pattern, desc))
    return fail(err, XSDT_ERR_BAD_PATTERN,
                "pattern '%s' is not a probe description "
                "[[[provider:]module:]function:]name of fnmatch globs: %s",
                pattern ? pattern : "(null)", why);
  return 0;
}

// ---- First use -------------------------------------------------------------

bool g_started = false; // under api_lock()
bool g_jump_ok = false; // jump mode can be written on this system
int g_start_errno = 0;

// Once, before the first site is written: the fire path (its barrier mode,
// slot key and fork handler), whether jump mode can be written, and the
// trap hook.
bool start(xsdt_error *err) {
  if (g_started)
    return true;
  if (!prepare_fire_path(err))
    return false;
  // Jump sites wider than one store need every thread serialized between
  // the protocol's steps (x86): without that, only trap mode is safe.
  g_jump_ok =
      !isa::any_jump_needs_trap_first() || machdep::serialize_all_threads();
  g_start_errno = errno;
  set_sdt_trap_hook(resume_after_trap);
  g_started = true;
  return true;
}

// ---- Enable and disable ----------------------------------------------------

// The current enable's number: it marks the probes it chose
// (SdtProbeEntry::batch). Under api_lock().
unsigned long g_batch = 0;

// One site of one probe in a batch, for the error messages.
struct Target {
  SdtProbeEntry *probe;
  EnabledSite site;
};

// remove_traps, once the sites hold whole instructions again: out of
// memory, their entries stay in the trap table, where they are harmless (a
// site that holds a whole instruction does not trap; a later trap write
// replaces the entry).
void remove_traps_if_memory(std::vector<std::uintptr_t> sites) noexcept {
  try {
    remove_traps(std::move(sites));
  } catch (const std::bad_alloc &) {
  }
}

int patch_failure(xsdt_error *err, const PatchFailure &f,
                  const std::vector<Target> &targets, const char *doing) {
  const Target &t = targets.at(f.tag);
  return fail(err, f.code, "probe %s, site %#lx: %s: %s", t.probe->id.c_str(),
              addr(t.site.site), doing, f.reason.c_str());
}

} // namespace

int sdt_enable(const char *pattern, xsdt_mode mode, xsdt_sdt_handler handler,
               void *user, xsdt_error *err) {
  ProbeDescription desc;
  if (parse_pattern(pattern, &desc, err) != 0)
    return -1;
  if (mode != XSDT_MODE_AUTO && mode != XSDT_MODE_JUMP &&
      mode != XSDT_MODE_TRAP)
    return fail(err, XSDT_ERR_BAD_MODE, "unknown mode %d",
                static_cast<int>(mode));
  if (!handler)
    return fail(err, XSDT_ERR_INTERNAL, "no handler given");

  std::lock_guard<std::mutex> guard(api_lock());
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

  xsdt_mode how = mode == XSDT_MODE_AUTO
                      ? (g_jump_ok ? XSDT_MODE_JUMP : XSDT_MODE_TRAP)
                      : mode;
  if (how == XSDT_MODE_JUMP && !g_jump_ok)
    return fail(err, XSDT_ERR_BAD_MODE,
                "jump mode needs all threads serialized between writes "
                "(membarrier SYNC_CORE: %s); use trap mode",
                std::strerror(g_start_errno));
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

  // Every valid site of the chosen probes, written as one batch.
  ++g_batch;
  for (SdtProbeEntry *p : chosen)
    p->batch = g_batch;
  std::vector<Target> targets;
  std::vector<CodeWrite> writes;
  const std::size_t size = isa::jump_site_size();
  for (const RegisteredSite &s : reg.sites) {
    if (s.probe->batch != g_batch)
      continue;
    CodeWrite w;
    w.addr = s.site;
    w.size = size;
    w.prot = s.prot;
    w.encoding = s.encoding;
    w.tag = targets.size();
    targets.push_back(
        Target{s.probe, EnabledSite{s.site, s.target, s.prot, s.encoding}});
    if (!isa::jump_site_nop(*s.encoding, s.site, s.target, w.from) ||
        !enabled_bytes(how, targets.back().site, w.to))
      return fail(err, XSDT_ERR_INTERNAL,
                  "probe %s, site %#lx: target %#lx out of the jump's reach",
                  s.probe->id.c_str(), addr(s.site), addr(s.target));
    writes.push_back(w);
  }

  // A trap at a site resumes at its out-of-line block: trap mode, and the
  // trap-first protocol's trap while a jump to that block is written.
  bool traps = how == XSDT_MODE_TRAP;
  for (const CodeWrite &w : writes)
    traps = traps || isa::jump_needs_trap_first(*w.encoding);
  if (traps && !writes.empty()) {
    if (install_sigtrap_handler(err) != 0)
      return -1;
    std::vector<TrapEntry> entries;
    for (const Target &t : targets)
      entries.push_back(TrapEntry{t.site.site, t.site.target});
    add_traps(std::move(entries));
  }
  // What the enable allocates once its sites are written is allocated
  // first: a std::bad_alloc after the write would leave written sites to a
  // probe that is not enabled (lit-tests/faults/oom-while-enabling.test).
  std::vector<std::uintptr_t> sites;
  sites.reserve(targets.size());
  for (const Target &t : targets)
    sites.push_back(t.site.site);
  std::vector<std::unique_ptr<Armed>> armed;
  for (SdtProbeEntry *p : chosen) {
    armed.push_back(std::make_unique<Armed>(Armed{handler, user, &p->info}));
    p->sites.clear();
    p->sites.reserve(static_cast<std::size_t>(
        std::count_if(targets.begin(), targets.end(),
                      [p](const Target &t) { return t.probe == p; })));
  }
  reg.enabled.reserve(reg.enabled.size() + chosen.size());

  PatchFailure failure;
  const bool any_write = !writes.empty();
  const bool written = apply_code_writes(std::move(writes), &failure);
  if (traps && any_write && (!written || how == XSDT_MODE_JUMP))
    remove_traps_if_memory(std::move(sites)); // no trap there now
  if (!written)
    return patch_failure(err, failure, targets, "enable");

  for (const Target &t : targets)
    t.probe->sites.push_back(t.site);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    SdtProbeEntry *p = chosen[i];
    std::sort(p->sites.begin(), p->sites.end(),
              [](const EnabledSite &a, const EnabledSite &b) {
                return a.site < b.site;
              });
    p->mode = how;
    p->armed = armed[i].release();
    reg.enabled.push_back(p);
    __atomic_store_n(&p->probe->runtime, static_cast<void *>(p->armed),
                     __ATOMIC_RELEASE);
  }
  clear(err);
  return static_cast<int>(chosen.size());
}

int sdt_disable(const char *pattern, xsdt_error *err) {
  ProbeDescription desc;
  if (parse_pattern(pattern, &desc, err) != 0)
    return -1;
  std::lock_guard<std::mutex> guard(api_lock());
  refresh(); // forgets the probes of unloaded objects: their code is gone
  Registry &reg = registry();
  std::vector<SdtProbeEntry *> going, staying;
  for (SdtProbeEntry *p : reg.enabled)
    (matches(desc, *p) ? going : staying).push_back(p);
  if (going.empty())
    return fail(err, XSDT_ERR_NOT_ENABLED, "no enabled SDT probe matches '%s'",
                pattern);

  std::vector<Target> targets;
  std::vector<CodeWrite> writes;
  const std::size_t size = isa::jump_site_size();
  bool jumps = false;
  for (SdtProbeEntry *p : going) {
    jumps = jumps || p->mode == XSDT_MODE_JUMP;
    for (const EnabledSite &s : p->sites) {
      CodeWrite w;
      w.addr = s.site;
      w.size = size;
      w.prot = s.prot;
      w.encoding = s.encoding;
      w.tag = targets.size();
      enabled_bytes(p->mode, s, w.from); // in reach: it was written so
      isa::jump_site_nop(*s.encoding, s.site, s.target, w.to);
      targets.push_back(Target{p, s});
      writes.push_back(w);
    }
  }

  // While a jump is turned back into the NOP, a trap at it skips the site.
  // Trap-mode sites keep their entries (resume at the block) until their
  // traps are gone.
  std::vector<TrapEntry> skips;
  if (jumps)
    for (const Target &t : targets)
      if (t.probe->mode == XSDT_MODE_JUMP &&
          isa::jump_needs_trap_first(*t.site.encoding))
        skips.push_back(TrapEntry{t.site.site, t.site.site + size});
  // Those traps need libxsdt's handler: a program that replaced it would
  // get them instead.
  if (!skips.empty() && check_trap_handler(err) != 0)
    return -1;
  std::vector<std::uintptr_t> skip_sites;
  for (const TrapEntry &e : skips)
    skip_sites.push_back(e.site);
  add_traps(std::move(skips));
  // Allocated before the write, as in enable: after it, running out of
  // memory would leave restored sites to probes still enabled.
  std::vector<std::uintptr_t> sites;
  sites.reserve(targets.size());
  for (const Target &t : targets)
    sites.push_back(t.site.site);
  PatchFailure failure;
  const bool written = apply_code_writes(std::move(writes), &failure);
  if (!written) {
    // Nothing changed: every site holds what it held (jumps or traps).
    remove_traps_if_memory(std::move(skip_sites));
    return patch_failure(err, failure, targets, "disable");
  }
  remove_traps_if_memory(std::move(sites));

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
  clear(err);
  return static_cast<int>(going.size());
}

// ---- Listing (visitors run without the lock, so they may enable) -----------

int sdt_list(xsdt_sdt_probe_visitor visit, void *user, xsdt_error *err) {
  std::vector<const xsdt_sdt_probe_info *> infos;
  {
    std::lock_guard<std::mutex> guard(api_lock());
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
