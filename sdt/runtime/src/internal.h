// Internal to libxsdt: probe discovery shared by the API functions.
#ifndef XSDT_RUNTIME_INTERNAL_H
#define XSDT_RUNTIME_INTERNAL_H

#include "xsdt/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace xsdt::rt {

// One stapsdt note of a loaded object, with run-time addresses.
struct ProbeSite {
  std::string provider;
  std::string name;
  std::string args;
  std::string object;    // dlpi_name; "" for the main program
  std::uintptr_t pc = 0; // run-time address of the site
  std::uintptr_t semaphore = 0;
  int argc = 0;
  int prot = 0; // PROT_* of the executable segment holding the site
};

// Every stapsdt note of the main program and of the loaded shared objects.
// Notes whose site does not lie in an executable segment of their object
// (a file replaced on disk since it was loaded, a malformed note) are
// skipped rather than trusted. Allocates; never called in signal context.
std::vector<ProbeSite> discover_probes();

// ---- SDT(9) jump sites (<xsdt/sdt.h>; record layout documented there) ----

// One SDT_PROBE_DEFINE* record of a loaded object.
struct SdtProbeDef {
  std::string provider, module, function, name; // ids as resolved: empty
  // module -> the object's file name (basename; the program's own for the
  // main program), empty function -> the one symbol holding all the
  // probe's sites (stays empty if they are in several), "__" -> "-" in name
  std::string id;     // provider:module:function:name
  std::string object; // dlpi_name ("" for the main program)
  int argc = 0;
  unsigned flags = 0; // 1 translated, 2 untyped
  std::vector<std::string> native_types, translated_types; // argc each
  std::uintptr_t probe = 0; // run-time address of its struct xsdt_sdt_probe
};

// One valid {site, target, probe} record, with run-time addresses.
struct SdtSite {
  std::uintptr_t site = 0, target = 0;
  std::size_t def = 0;  // index into SdtDiscovery::probes
  std::string function; // symbol holding the site ("" when none)
  int prot = 0;         // PROT_* of the executable segment holding it
};

struct SdtDiscovery {
  std::vector<SdtProbeDef> probes;
  std::vector<SdtSite> sites;
  // One message per record that failed validation: "<object>: site record
  // #<i> at <addr>: <reason>" (misaligned site, jump out of reach, bytes
  // that are not the expected NOP, an address outside the object's
  // executable segments, a probe reference that is no definition).
  std::vector<std::string> invalid;
};

// Reads the xsdt_sdt_probes / xsdt_sdt_sites sections of every loaded
// object (section headers from the file on disk, contents from memory) and
// validates each site record. Bytes are checked against the NOP only when
// check_bytes is set: the caller passes false while it has sites patched
// (it knows their state) and true otherwise. Allocates; never in signal
// context.
SdtDiscovery discover_sdt(bool check_bytes);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_INTERNAL_H
