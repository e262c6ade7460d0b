// Private to libxsdt: the SDT registry, every SDT probe and site of the
// loaded objects as discovery last found them, and what enable wrote at
// each (FreeBSD sdt.c's probe list). Its own unit because it is the one
// state that enable, disable and the listings all read, and the only one
// that follows dlopen and dlclose.
#ifndef XSDT_RUNTIME_SDT_REGISTRY_H
#define XSDT_RUNTIME_SDT_REGISTRY_H

#include "sdt_probe.h"
#include "xsdt/sdt-runtime.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace xsdt {
struct SiteEncoding; // xsdt/arch_port.h
} // namespace xsdt

namespace xsdt::rt {

struct EnabledSite {
  std::uintptr_t site = 0, target = 0;
  int prot = 0;
  const SiteEncoding *encoding = nullptr; // its instruction set's
};

// A registered probe. Never freed: its strings are what handlers and
// visitors see (info), and a handler may run until disable returns.
struct SdtProbeEntry {
  std::string id, provider, module, function, name, object;
  std::vector<std::string> native, translated;
  std::vector<const char *> native_ptrs, translated_ptrs;
  xsdt_sdt_probe_info info{};
  xsdt_sdt_probe *probe = nullptr;
  // Under api_lock():
  xsdt_mode mode = XSDT_MODE_AUTO; // XSDT_MODE_AUTO: disabled
  Armed *armed = nullptr;
  std::vector<EnabledSite> sites; // as written by the enable
  // Its valid sites in the latest discovery: indices into
  // registry().sites, by address (index_sites()), so that enabling one
  // probe does not scan every site.
  std::vector<std::uint32_t> registered;
  unsigned long batch = 0; // == g_batch: going in the current disable
  xsdt_mode pending = XSDT_MODE_AUTO; // the mode the current enable writes
};

struct RegisteredSite {
  std::uintptr_t site = 0, target = 0;
  SdtProbeEntry *probe = nullptr;
  std::string function;
  int prot = 0;
  const SiteEncoding *encoding = nullptr; // its instruction set's
};

struct Registry {
  // Every probe ever seen, by its object's address and id (an object
  // loaded again at the same address finds its entries again).
  std::map<std::pair<std::uintptr_t, std::string>, SdtProbeEntry *> known;
  // The latest discovery.
  std::vector<SdtProbeEntry *> probes;
  std::vector<RegisteredSite> sites; // index_sites() after any change
  std::vector<std::string> invalid;
  std::vector<SdtProbeEntry *> enabled;
  bool discovered = false;
  unsigned long long adds = 0, subs = 0; // dl_iterate_phdr's load counters
};

// Never destroyed: a thread may fire a probe during exit.
Registry &registry();

// Whether p has a site at this address enabled. p.sites is sorted by
// address (enable sorts it).
bool enabled_at(const SdtProbeEntry &p, std::uintptr_t site);

// Fills every probe's `registered` from reg.sites: after reg.sites or
// reg.probes changed. Under api_lock().
void index_sites();

// Brings the registry up to date with the loaded objects (only when one
// was loaded or unloaded since the last time). Under api_lock().
void refresh();

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SDT_REGISTRY_H
