// How xsdt-trace starts the program it traces: the program's arch (read
// from its ELF header), the agent library of that arch, and, for a program
// this machine does not run itself, the arch's emulator (arch.json's
// "emulator": qemu-user with its sysroot), found through the registry of
// arches (xsdt/arch_registry.h). No binfmt_misc set-up is assumed.
#ifndef XSDT_TRACE_LAUNCH_H
#define XSDT_TRACE_LAUNCH_H

#include <stdexcept>
#include <string>
#include <vector>

namespace xsdt::trace {

struct LaunchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Launch {
  std::string arch;  // the program's arch (its arches/ directory name)
  std::string agent; // libxsdt-trace-agent.so built for that arch
  // The command to exec: the emulator's words and the environment they
  // give the program (the agent preloaded there, not into the emulator),
  // then the program and its arguments. Empty emulator: the program runs
  // itself and LD_PRELOAD is set in its environment.
  std::vector<std::string> argv;
  bool emulated = false;
};

// Where agents are looked for.
struct AgentPlaces {
  std::string host_arch;  // the arch xsdt-trace itself was built for
  std::string host_agent; // the host's agent (found beside the command)
  std::string prefix;     // the installed prefix (<bin>/..)
  std::string from_env;   // $XSDT_TRACE_AGENT, if set
};

// The agent library for a program of `arch` ($XSDT_TRACE_AGENT when it
// is built for that arch, else the host's agent for the host's arch, or
// <prefix>/lib/<triple>/xsdt/ for another). Throws LaunchError naming
// `program` and every place tried.
std::string find_agent(const std::string &arch, const AgentPlaces &places,
                       const std::string &program);

// The arch of the running process pid: that of the ELF /proc/PID/exe
// names, or, where that is an arch's emulator (qemu-user running a
// program of another arch), that of the ELF files it maps. Throws
// LaunchError when neither tells.
std::string process_arch(int pid);

// The launch of `words` (the -c command split into words; words[0] is
// looked up in $PATH when it has no '/'). Throws LaunchError saying what is
// missing: an unknown arch, no agent for it, no emulator.
Launch plan_launch(const std::vector<std::string> &words,
                   const AgentPlaces &places);

} // namespace xsdt::trace

#endif // XSDT_TRACE_LAUNCH_H
