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

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_INTERNAL_H
