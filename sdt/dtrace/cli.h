// The command line of SystemTap's dtrace script, parsed with CLI11:
//   xsdt-dtrace (-h | -G) -s FILE.d [-o FILE] [-C] [-I DIR] [-D NAME[=V]]
//               [-U NAME] [-k] [-x OPT] [-64 | -32] [-fpic | -fPIC]
//               [--types] [--help] [--version] [OBJECT...]
#ifndef XSDT_DTRACE_CLI_H
#define XSDT_DTRACE_CLI_H

#include <string>
#include <vector>

namespace xsdt::dtrace {

enum class Mode { Header, Object };

struct Options {
  Mode mode = Mode::Header;
  std::string provider_file; // -s
  std::string output;        // -o, or the default name
  bool preprocess = false;   // -C
  // -I, -D and -U in the order given, each as one word ("-Iinc", "-DX=1").
  std::vector<std::string> preprocessor_options;
  bool keep_temporaries = false;    // -k
  bool types_option = false;        // --types (obsolete)
  std::vector<std::string> objects; // after -G: accepted, ignored
};

struct CommandLine {
  enum class Action { Run, Help, Version, UsageError } action = Action::Run;
  Options options;
  std::string error; // UsageError: e.g. "unknown option '-q'"
};

// `args` without the program name.
CommandLine parse_command_line(const std::vector<std::string> &args);

// One line: "usage: xsdt-dtrace ...".
std::string usage_text();
// The --help text (usage_text() first).
std::string help_text();
// The --version text: "xsdt-dtrace VERSION", the project's version.
std::string version_text();

} // namespace xsdt::dtrace

#endif
