// x86's time-stamp counter as the record clock (machdep::cycle_counter),
// shared by the i386 and x86_64 runtimes.
//
// Used where it holds: the TSC is invariant (CPUID 80000007H, EDX bit 8:
// the same rate in every P-, C- and T-state) and the kernel keeps its own
// clock on it (clocksource "tsc", which it chose only after finding the
// CPUs' counters synchronized; under another clocksource a thread that
// migrates could read a smaller value). Read without a fence (RDTSC, not
// LFENCE; RDTSC): 7.5 ns against 13.5 on the machine measured
// (docs/benchmarks.md); a hit's read may then run a few cycles early, far
// less than the instructions between it and any clock read the program
// makes around the hit, and the drain keeps each thread's records in
// order.
#ifndef XSDT_ARCHES_X86_RUNTIME_TSC_H
#define XSDT_ARCHES_X86_RUNTIME_TSC_H

#include "machdep.h"

#include <cpuid.h>
#include <cstdio>
#include <cstring>

namespace xsdt::rt::x86 {

inline std::uint64_t read_tsc() { return __builtin_ia32_rdtsc(); }

inline bool tsc_is_the_clock() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
    return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  if (!(edx & (1u << 8)))
    return false;
  std::FILE *f = std::fopen(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
  if (!f)
    return false;
  char name[32] = {};
  const bool read = std::fgets(name, sizeof name, f) != nullptr;
  std::fclose(f);
  return read && std::strcmp(name, "tsc\n") == 0;
}

inline const machdep::CycleCounter *tsc_counter() {
  static const machdep::CycleCounter tsc{"tsc", read_tsc};
  static const bool usable = tsc_is_the_clock();
  return usable ? &tsc : nullptr;
}

} // namespace xsdt::rt::x86

#endif // XSDT_ARCHES_X86_RUNTIME_TSC_H
