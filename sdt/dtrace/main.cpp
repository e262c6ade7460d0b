// xsdt-dtrace: SystemTap's `dtrace -h` / `dtrace -G` build step on xsdt's
// probes. Reads the provider file (through cpp with -C), parses it, and
// writes the header or compiles the semaphores' object; every output goes
// through a temporary directory beside it and is renamed into place, so a
// failure leaves no output.
#include "cli.h"
#include "files.h"
#include "header_writer.h"
#include "names.h"
#include "object_writer.h"
#include "parser.h"
#include "process.h"
#include "shell_words.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>

using namespace xsdt::dtrace;

namespace {

constexpr const char *program = "xsdt-dtrace";

// Exit statuses: a step that failed (the preprocessor, the compiler, an
// output that cannot be written) is 1; bad input, the provider file missing,
// unreadable or malformed, is 2 as a usage error is, and as xsdt-inspect's
// unreadable input is: the command cannot succeed until the user changes it.
constexpr int kFailed = 1, kBadInput = 2;

// The provider file cannot be read.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int fail(const std::string &message, int status = kFailed) {
  std::cerr << program << ": error: " << message << "\n";
  return status;
}

// The variable's value, or `fallback` when it is unset.
std::string environment(const char *name, const char *fallback) {
  const char *value = std::getenv(name);
  return value ? value : fallback;
}

// The output's name without its directory and extension: the temporary
// files' base name, which lands in the object's symbol table (STT_FILE),
// so it does not change from build to build.
std::string stem_of(const std::string &output) {
  std::string stem = default_output(output, "");
  return stem.empty() ? "provider" : stem;
}

// Runs $CPP over the provider file into `tmp`; returns the output's text.
std::string preprocess(const Options &o, const TempDir &tmp) {
  std::vector<std::string> argv = split_shell_words(environment("CPP", "cpp"));
  if (argv.empty())
    throw FileError("$CPP names no preprocessor");
  argv.insert(argv.end(), o.preprocessor_options.begin(),
              o.preprocessor_options.end());
  std::string out = tmp.file(stem_of(o.output) + ".d.i");
  for (const std::string &a : {std::string("-x"), std::string("c"),
                               o.provider_file, std::string("-o"), out})
    argv.push_back(a);
  std::string what = run_command(argv);
  if (!what.empty())
    throw FileError("the C preprocessor (" + command_line(argv) + ") " + what);
  return read_file(out);
}

int run(const Options &o) {
  if (o.types_option)
    std::cerr << program << ": note: obsolete option --types used\n";
  std::string source;
  try {
    source = read_file(o.provider_file);
  } catch (const FileError &e) {
    throw BadInput(e.what());
  }
  TempDir tmp(o.output);
  if (o.keep_temporaries)
    tmp.keep();
  if (o.preprocess)
    source = preprocess(o, tmp);
  ProviderFile file = parse_provider_file(source, o.provider_file);
  if (file.providers.empty())
    std::cerr << o.provider_file << ": warning: no provider in the file\n";

  std::string result;
  if (o.mode == Mode::Header) {
    result = tmp.file(std::string(base_name(o.output)));
    write_file(result, write_header(file, o.provider_file, o.output));
  } else {
    std::string c_file = tmp.file(stem_of(o.output) + ".c");
    write_file(c_file, write_semaphores(file, o.provider_file));
    result = tmp.file(stem_of(o.output) + ".o");
    std::vector<std::string> argv;
    try {
      argv = compile_command(std::getenv("CC"), std::getenv("CFLAGS"),
                             o.preprocessor_options, c_file, result);
    } catch (const std::invalid_argument &e) {
      return fail(std::string("$CC or $CFLAGS: ") + e.what());
    }
    std::string what = run_command(argv);
    if (!what.empty())
      return fail("the C compiler (" + command_line(argv) + ") " + what + "\n" +
                  program + ": note: " + o.output + " was not written");
  }
  move_into_place(result, o.output);
  if (o.keep_temporaries)
    std::cerr << program << ": note: temporary files kept in " << tmp.path()
              << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  CommandLine cl = parse_command_line(args);
  switch (cl.action) {
  case CommandLine::Action::Help:
    std::cout << help_text();
    return 0;
  case CommandLine::Action::Version:
    std::cout << version_text();
    return 0;
  case CommandLine::Action::UsageError:
    std::cerr << program << ": error: " << cl.error << "\n" << usage_text();
    return kBadInput;
  case CommandLine::Action::Run:
    break;
  }
  try {
    return run(cl.options);
  } catch (const SyntaxError &e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  } catch (const BadInput &e) {
    return fail(e.what(), kBadInput);
  } catch (const FileError &e) {
    return fail(e.what());
  } catch (const std::invalid_argument &e) {
    return fail(std::string("$CPP: ") + e.what());
  } catch (const std::exception &e) {
    return fail(e.what());
  }
}
