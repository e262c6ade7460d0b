#include "launch.h"

#include "elf_image.h"
#include "xsdt/arch_registry.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <unistd.h>
#include <vector>

namespace xsdt::trace {
namespace {

// words[0] as execvp would find it.
std::string find_program(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return name;
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate;
    start = end + 1;
  }
  throw LaunchError(name + ": not found in $PATH");
}

// The arch of an ELF file; nullopt for a file that is not ELF.
std::optional<Arch> elf_arch(const std::string &path, std::string *why) {
  try {
    return inspect::ElfImage::load(path).arch();
  } catch (const inspect::InputError &e) {
    *why = e.what();
    return std::nullopt;
  }
}

// The arches whose emulator (arch.json "emulator") is the program at
// path: qemu-user's binary, by its name (qemu-arm runs armel's and
// armhf's programs both).
std::vector<Arch> arches_emulated_by(const std::string &path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  std::vector<Arch> out;
  for (Arch a : all_arches()) {
    auto emulator = arch_emulator(a);
    if (emulator.empty())
      continue;
    const std::string_view word = emulator[0];
    const std::string own(word.substr(word.rfind('/') + 1));
    if (name == own || name == own + "-static")
      out.push_back(a);
  }
  return out;
}

} // namespace

std::string find_agent(const std::string &arch_text, const AgentPlaces &places,
                       const std::string &program) {
  const std::optional<Arch> arch = parse_arch(arch_text);
  if (!arch)
    throw LaunchError(program + ": unknown arch " + arch_text);
  const bool host = arch_text == places.host_arch;
  const std::string triple(arch_triple(*arch));
  std::vector<std::string> tried;
  std::vector<std::string> candidates;
  if (!places.from_env.empty())
    candidates.push_back(places.from_env);
  candidates.push_back(host ? places.host_agent
                            : places.prefix + "/lib/" + triple +
                                  "/xsdt/libxsdt-trace-agent.so");
  for (const std::string &candidate : candidates) {
    if (candidate.empty())
      continue;
    std::string agent_why;
    std::optional<Arch> agent_arch = access(candidate.c_str(), R_OK) == 0
                                         ? elf_arch(candidate, &agent_why)
                                         : std::nullopt;
    if (agent_arch && *agent_arch == *arch)
      return candidate;
    tried.push_back(
        candidate +
        (agent_arch ? " (built for " + std::string(arch_name(*agent_arch)) + ")"
                    : " (missing)"));
  }
  std::string list;
  for (const std::string &t : tried)
    list += (list.empty() ? "" : ", ") + t;
  throw LaunchError(program + ": a program for " + arch_text +
                    ", and no libxsdt-trace-agent.so for " + arch_text +
                    " was found: tried " + list + " (install libxsdt's " +
                    triple + " build, or set XSDT_TRACE_AGENT)");
}

std::string process_arch(int pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  char target[PATH_MAX];
  const ssize_t n =
      readlink((proc + "/exe").c_str(), target, sizeof target - 1);
  if (n <= 0)
    throw LaunchError("pid " + std::to_string(pid) + ": cannot read " + proc +
                      "/exe (" + std::strerror(errno) + ")");
  const std::string exe(target, static_cast<std::size_t>(n));
  const std::vector<Arch> emulated = arches_emulated_by(exe);
  std::string why;
  if (emulated.empty()) {
    if (std::optional<Arch> arch = elf_arch(proc + "/exe", &why))
      return std::string(arch_name(*arch));
    throw LaunchError("pid " + std::to_string(pid) + ": " + exe +
                      " is not a program of an arch xsdt-trace knows (" + why +
                      ")");
  }
  // Under the emulator: the arch of the program's own files, which it
  // maps (the program and its libraries, all of the one arch).
  std::ifstream maps(proc + "/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const std::size_t slash = line.find('/');
    if (slash == std::string::npos)
      continue;
    const std::string file = line.substr(slash);
    if (file == exe)
      continue;
    std::string ignored;
    if (std::optional<Arch> arch = elf_arch(file, &ignored))
      if (std::find(emulated.begin(), emulated.end(), *arch) != emulated.end())
        return std::string(arch_name(*arch));
  }
  throw LaunchError("pid " + std::to_string(pid) + ": runs under " + exe +
                    ", and none of the files it maps is a program of " +
                    "the arches that emulator runs");
}

Launch plan_launch(const std::vector<std::string> &words,
                   const AgentPlaces &places) {
  Launch launch;
  const std::string program = find_program(words.at(0));
  std::string why;
  std::optional<Arch> arch = elf_arch(program, &why);
  if (!arch)
    throw LaunchError(program + ": not a program xsdt-trace can trace (" + why +
                      "); the agent is preloaded into an ELF program "
                      "of one of the arches: " +
                      arch_names_text());
  launch.arch = std::string(arch_name(*arch));
  const bool host = launch.arch == places.host_arch;
  launch.agent = find_agent(launch.arch, places, program);

  // A host whose kernel runs the arch's programs itself (i386 on x86-64)
  // starts them through the sysroot's loader, with the agent in
  // LD_PRELOAD as for its own; XSDT_TRACE_EMULATE=1 asks for the emulator
  // all the same.
  auto loader = host ? std::span<const std::string_view>{}
                     : arch_host_loader(*arch, places.host_arch);
  const char *emulate = std::getenv("XSDT_TRACE_EMULATE");
  const bool through_loader = !loader.empty() &&
                              !(emulate && std::string_view(emulate) == "1") &&
                              access(std::string(loader[0]).c_str(), X_OK) == 0;
  auto emulator = arch_emulator(*arch);
  if (through_loader) {
    for (std::string_view word : loader)
      launch.argv.emplace_back(word);
  } else if (!host && !emulator.empty()) {
    std::string emulator_name(emulator[0]);
    try {
      find_program(emulator_name);
    } catch (const LaunchError &) {
      throw LaunchError(program + ": a program for " + launch.arch + ", and " +
                        emulator_name +
                        ", which runs it here, is not in $PATH "
                        "(Debian: qemu-user)");
    }
    for (std::string_view word : emulator)
      launch.argv.emplace_back(word);
    // qemu-user's -E sets a variable in the program's environment only: the
    // emulator itself must not preload a library of another arch.
    launch.argv.push_back("-E");
    launch.argv.push_back("LD_PRELOAD=" + launch.agent);
    launch.emulated = true;
  }
  launch.argv.push_back(program);
  launch.argv.insert(launch.argv.end(), words.begin() + 1, words.end());
  return launch;
}

} // namespace xsdt::trace
