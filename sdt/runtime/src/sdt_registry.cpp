// libxsdt, SDT(9) part: the registry of SDT probes and sites (FreeBSD
// sdt.c's probe list). It turns discovery's records into entries that live
// as long as the process (handlers and visitors hold their strings), keeps
// them across a dlclose and a dlopen at the same address, and forgets what
// enable wrote into an object that went away. Apart from enable and
// disable: it is their shared state, and the listings read it too.
#include "sdt_registry.h"

#include "internal.h"
#include "isa.h"
#include "patch.h"
#include "trap_table.h"
#include "xsdt/arch_port.h"
#include "xsdt/hex_text.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <link.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace xsdt::rt {

// Never destroyed: a thread may fire a probe during exit.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

namespace {

struct LoadCounters {
  bool known = false;
  unsigned long long adds = 0, subs = 0;
};

int read_load_counters(dl_phdr_info *info, std::size_t size, void *data) {
  auto *c = static_cast<LoadCounters *>(data);
  if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
    c->known = true;
    c->adds = info->dlpi_adds;
    c->subs = info->dlpi_subs;
  }
  return 1; // the first object is enough
}

SdtProbeEntry *make_entry(const SdtProbeDef &def) {
  auto *e = new SdtProbeEntry;
  e->id = def.id;
  e->provider = def.provider;
  e->module = def.module;
  e->function = def.function;
  e->name = def.name;
  e->object = def.object;
  e->native = def.native_types;
  e->translated = def.translated_types;
  e->native.resize(static_cast<std::size_t>(def.argc));
  e->translated.resize(static_cast<std::size_t>(def.argc));
  for (int i = 0; i < def.argc; ++i) {
    e->native_ptrs.push_back(e->native[static_cast<std::size_t>(i)].c_str());
    e->translated_ptrs.push_back(
        e->translated[static_cast<std::size_t>(i)].c_str());
  }
  e->probe = reinterpret_cast<xsdt_sdt_probe *>(def.probe);
  e->info.id = e->id.c_str();
  e->info.provider = e->provider.c_str();
  e->info.module = e->module.c_str();
  e->info.function = e->function.c_str();
  e->info.name = e->name.c_str();
  e->info.object = e->object.c_str();
  e->info.argc = def.argc;
  e->info.typed = (def.flags & 2u) ? 0 : 1;
  e->info.translated = (def.flags & 1u) ? 1 : 0;
  e->info.native_types = e->native_ptrs.data();
  e->info.translated_types = e->translated_ptrs.data();
  e->info.probe = e->probe;
  return e;
}

} // namespace

// p.sites is sorted by address (enable sorts it).
bool enabled_at(const SdtProbeEntry &p, std::uintptr_t site) {
  auto it = std::lower_bound(
      p.sites.begin(), p.sites.end(), site,
      [](const EnabledSite &e, std::uintptr_t s) { return e.site < s; });
  return it != p.sites.end() && it->site == site;
}

void index_sites() {
  Registry &reg = registry();
  for (SdtProbeEntry *p : reg.probes)
    p->registered.clear();
  for (std::size_t i = 0; i < reg.sites.size(); ++i)
    reg.sites[i].probe->registered.push_back(static_cast<std::uint32_t>(i));
  auto by_address = [&](std::uint32_t a, std::uint32_t b) {
    return reg.sites[a].site < reg.sites[b].site;
  };
  for (SdtProbeEntry *p : reg.probes)
    if (!std::is_sorted(p->registered.begin(), p->registered.end(), by_address))
      std::sort(p->registered.begin(), p->registered.end(), by_address);
}

namespace {

// Forgets the enabled probes whose object was unloaded (dlclose), or
// unloaded and loaded again (its sites hold the NOP again, not what we
// wrote): nothing of theirs is ours to restore. Their Armed records are
// kept, in case a thread is still inside one of their handlers.
void forget_unloaded(const std::vector<SdtProbeEntry *> &loaded) {
  Registry &reg = registry();
  std::vector<SdtProbeEntry *> still;
  std::vector<std::uintptr_t> gone;
  for (SdtProbeEntry *p : reg.enabled) {
    bool present = std::find(loaded.begin(), loaded.end(), p) != loaded.end();
    for (const EnabledSite &s : p->sites) {
      if (!present)
        break;
      unsigned char bytes[kMaxSiteBytes], nop[kMaxSiteBytes];
      isa::enabled_jump_site(p->mode == XSDT_MODE_JUMP, *s.encoding, s.site,
                             s.target, bytes);
      isa::jump_site_nop(*s.encoding, s.site, s.target, nop);
      present = std::memcmp(reinterpret_cast<const void *>(s.site), bytes,
                            isa::jump_site_size()) == 0 ||
                std::memcmp(reinterpret_cast<const void *>(s.site), nop,
                            isa::jump_site_size()) != 0;
    }
    if (present) {
      still.push_back(p);
      continue;
    }
    for (const EnabledSite &s : p->sites)
      gone.push_back(s.site);
    p->mode = XSDT_MODE_AUTO;
    p->armed = nullptr;
    p->sites.clear();
  }
  remove_traps(gone);
  reg.enabled = std::move(still);
}

} // namespace

// Brings the registry up to date with the loaded objects (only when one
// was loaded or unloaded since the last time, or the last discovery could
// not read a file). Under api_lock().
void refresh() {
  Registry &reg = registry();
  LoadCounters now;
  dl_iterate_phdr(read_load_counters, &now);
  if (reg.discovered && now.known && now.adds == reg.adds &&
      now.subs == reg.subs)
    return;
  // Discovery checks the NOP only while nothing is patched; otherwise we
  // check the sites we did not patch ourselves.
  bool patched = false;
  for (const SdtProbeEntry *p : reg.enabled)
    patched = patched || !p->sites.empty();
  SdtDiscovery found = discover_sdt(!patched);

  std::vector<SdtProbeEntry *> probes;
  std::vector<bool> fresh;
  for (const SdtProbeDef &def : found.probes) {
    auto key = std::make_pair(def.probe, def.id);
    auto it = reg.known.find(key);
    fresh.push_back(it == reg.known.end());
    if (fresh.back())
      it = reg.known.emplace(key, make_entry(def)).first;
    probes.push_back(it->second);
  }
  forget_unloaded(probes);
  std::vector<RegisteredSite> sites;
  std::vector<int> counts(probes.size(), 0); // valid sites per definition
  std::vector<std::string> invalid = std::move(found.invalid);
  const std::size_t size = isa::jump_site_size();
  for (const SdtSite &s : found.sites) {
    SdtProbeEntry *p = probes.at(s.def);
    const auto *bytes = reinterpret_cast<const unsigned char *>(s.site);
    unsigned char nop[kMaxSiteBytes];
    isa::jump_site_nop(*s.encoding, s.site, s.target,
                       nop); // discovery checked the reach
    if (patched && !enabled_at(*p, s.site) &&
        std::memcmp(bytes, nop, size) != 0) {
      char where[64];
      std::snprintf(where, sizeof where, "%#lx",
                    static_cast<unsigned long>(s.site));
      invalid.push_back((p->object.empty() ? "(main program)" : p->object) +
                        ": site " + where + " of probe " + p->id + " holds " +
                        hex_bytes(bytes, size) + ", not the NOP " +
                        hex_bytes(nop, size));
      continue;
    }
    ++counts[s.def];
    sites.push_back(
        RegisteredSite{s.site, s.target, p, s.function, s.prot, s.encoding});
  }
  for (std::size_t i = 0; i < probes.size(); ++i)
    if (fresh[i]) // nsites is set at the first registration only
      probes[i]->info.nsites = counts[i];
  for (SdtProbeEntry *p : reg.probes)
    p->registered.clear(); // a probe gone from this discovery has none
  reg.probes = std::move(probes);
  reg.sites = std::move(sites);
  index_sites();
  reg.invalid = std::move(invalid);
  // A file that could not be read is read again at the next call, not
  // remembered as an object without probes.
  reg.discovered = found.complete;
  reg.adds = now.adds;
  reg.subs = now.subs;
}

} // namespace xsdt::rt
