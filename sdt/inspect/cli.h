// xsdt-inspect's command line, parsed with CLI11:
//   xsdt-inspect list FILE [--json]
//   xsdt-inspect check FILE... [--only=GROUP,...] [--ignore-provider=NAME]...
//   xsdt-inspect parse-arg --arch ARCH 'SPEC...'
//   xsdt-inspect [COMMAND] --help | -h,  xsdt-inspect --version
#ifndef XSDT_INSPECT_CLI_H
#define XSDT_INSPECT_CLI_H

#include "checks.h"
#include "xsdt/arch_registry.h"

#include <optional>
#include <string>
#include <vector>

namespace xsdt::inspect {

enum class Command { List, Check, ParseArg };

struct Options {
  Command command = Command::List;
  std::vector<std::string> files; // list: one; check: one or more
  bool json = false;              // list --json
  CheckGroups groups;             // check --only (default: all)
  // check --ignore-provider: probes of these providers are not the file's
  // own (e.g. the libstdc++ probes in a static link); left out and counted.
  std::vector<std::string> ignored_providers;
  std::optional<Arch> arch; // parse-arg --arch
  std::string args;         // parse-arg: the args string
};

struct CommandLine {
  enum class Action { Run, Help, Version, UsageError } action = Action::Run;
  Options options;
  // Help: the help text; Version: "xsdt-inspect VERSION"; UsageError: one
  // line, e.g. "unknown option '--bogus'".
  std::string text;
};

// `args` without the program name.
CommandLine parse_command_line(const std::vector<std::string> &args);

// The synopsis ("usage: xsdt-inspect list ..."), the exit statuses and the
// arches of this build, printed after a usage error.
std::string usage_text();

} // namespace xsdt::inspect

#endif // XSDT_INSPECT_CLI_H
