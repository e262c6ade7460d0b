// Internal to libxsdt: probe discovery shared by the API functions.
#ifndef XSDT_RUNTIME_INTERNAL_H
#define XSDT_RUNTIME_INTERNAL_H

#include "xsdt/runtime.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace xsdt {
struct SiteEncoding; // xsdt/arch_port.h
} // namespace xsdt

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
  // Its instruction set's encoding (isa::jump_encoding_at).
  const SiteEncoding *encoding = nullptr;
};

struct SdtDiscovery {
  std::vector<SdtProbeDef> probes;
  std::vector<SdtSite> sites;
  // One message per record that failed validation: "<object>: site record
  // #<i> at <addr>: <reason>" (misaligned site, jump out of reach, bytes
  // that are not the expected NOP, an address outside the object's
  // executable segments, a probe reference that is no definition), or
  // "<object>: definition record #<i> at <addr>: <reason>" (version, argc,
  // flags, strings, a probe object outside writable data; a size field
  // that breaks the framing also ends the walk of that section). <i>
  // counts from 0 in the object, <addr> is the record's run-time address.
  std::vector<std::string> invalid;
  // False when a file that should hold records could not be opened or read
  // (no /proc, an I/O error): what was found is not all there is, and the
  // next look must discover again rather than trust it.
  bool complete = true;
};

// Reads the xsdt_sdt_probes / xsdt_sdt_sites sections of every loaded
// object (section headers from the file on disk, contents from memory) and
// validates each site record. Bytes are checked against the NOP only when
// check_bytes is set: the caller passes false while it has sites patched
// (it knows their state) and true otherwise. Allocates; never in signal
// context.
SdtDiscovery discover_sdt(bool check_bytes);

// ---- The per-object part of discover_sdt, on its own so that tests can
// feed it forged records in ordinary buffers ----

// A run-time address range of the object and its PROT_* (a PT_LOAD segment;
// the PT_GNU_RELRO part of a writable one without PROT_WRITE).
struct SdtSegment {
  std::uintptr_t start = 0, end = 0;
  int prot = 0;
};

// The function symbol holding an address ("" and 0 when none).
struct SdtFunction {
  std::string name;
  std::uintptr_t start = 0; // run-time; tells two local symbols apart
};

struct SdtObjectImage {
  std::string object; // dlpi_name ("" for the main program)
  std::string label;  // the object's file, for the messages in `invalid`
  std::string module; // the default module: the file's basename
  // The contents of the xsdt_sdt_probes / xsdt_sdt_sites sections in
  // memory (readable for their whole size).
  std::vector<std::span<const unsigned char>> probe_sections, site_sections;
  std::vector<SdtSegment> segments;
  // The function symbol holding each address; may be empty (no symbols).
  std::function<std::vector<SdtFunction>(const std::vector<std::uintptr_t> &)>
      functions_at;
};

// Appends the object's valid definitions and sites to `out` (SdtSite::def
// indexes out.probes) and one message per invalid record to out.invalid.
void discover_sdt_object(const SdtObjectImage &image, bool check_bytes,
                         SdtDiscovery &out);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_INTERNAL_H
