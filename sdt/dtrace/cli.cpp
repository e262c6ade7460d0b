// Command-line parsing: see cli.h.
#include "cli.h"

#include "names.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>

#ifndef XSDT_VERSION
#error "XSDT_VERSION: sdt/dtrace/CMakeLists.txt passes the project version"
#endif

namespace xsdt::dtrace {

std::string usage_text() {
  return "usage: xsdt-dtrace [--help | --version] (-h | -G) [-C] [-I DIR] [-D "
         "NAME[=VALUE]] "
         "[-U NAME] -s FILE.d [-o FILE] [-k] [OBJECT...]\n";
}

std::string help_text() {
  return usage_text() + R"(
A drop-in replacement for SystemTap's dtrace build step, on xsdt's probes.

  -h           write a C/C++ header: per probe PROVIDER_NAME(args...) and
               PROVIDER_NAME_ENABLED(), as SystemTap's header names them
  -G           write an object file that defines every probe's semaphore.
               On Linux that is all a -G object holds (the probe notes are
               emitted where the probes are), so OBJECT files given after
               -G are accepted and left alone. Compiled with $CC (default
               cc) and $CFLAGS, so a cross build gets a target object.
  -s FILE.d    the provider file (required)
  -o FILE      the output (default: FILE's base name without its extension,
               plus .h or .o, in the current directory)
  -C           run the provider file through the C preprocessor first:
               $CPP (default cpp) with the -I, -D and -U options
  -I DIR, -D NAME[=VALUE], -U NAME
               for the preprocessor (-C) and the compiler (-G)
  -k           keep the temporary files
  -x OPT, -64, -32, -fpic, -fPIC
               accepted for DTrace compatibility and ignored
  --types      obsolete, ignored
  --help       this text
  --version    print "xsdt-dtrace VERSION" and exit

Exit status: 0 done; 1 a failing preprocessor or compiler or an output that
cannot be written; 2 a usage error, or a provider file that is missing,
unreadable or malformed (no output is written unless 0).
)";
}

std::string version_text() { return "xsdt-dtrace " XSDT_VERSION "\n"; }

namespace {

// Forms that CLI11 cannot express (multi-letter single-dash options).
const std::vector<std::string> ignored_words = {"-64", "-32", "-fpic", "-fPIC"};

CommandLine usage_error(std::string message) {
  CommandLine c;
  c.action = CommandLine::Action::UsageError;
  c.error = std::move(message);
  return c;
}

} // namespace

CommandLine parse_command_line(const std::vector<std::string> &args) {
  CommandLine result;
  Options &o = result.options;

  std::vector<std::string> kept;
  for (const std::string &a : args)
    if (std::find(ignored_words.begin(), ignored_words.end(), a) ==
        ignored_words.end())
      kept.push_back(a);
  if (args.empty())
    return usage_error("no arguments");

  CLI::App app{"", "xsdt-dtrace"};
  app.set_help_flag(); // -h is dtrace's header mode; --help is ours
  app.allow_extras();
  bool header = false, object = false, help = false, version = false;
  std::vector<std::string> includes, defines, undefines, x_options;
  app.add_flag("-h", header);
  app.add_flag("-G", object);
  app.add_option("-s", o.provider_file);
  app.add_option("-o", o.output);
  app.add_flag("-C", o.preprocess);
  CLI::Option *include_opt =
      app.add_option("-I", includes)->allow_extra_args(false);
  CLI::Option *define_opt =
      app.add_option("-D", defines)->allow_extra_args(false);
  CLI::Option *undefine_opt =
      app.add_option("-U", undefines)->allow_extra_args(false);
  app.add_option("-x", x_options)->allow_extra_args(false);
  app.add_flag("-k", o.keep_temporaries);
  app.add_flag("--types", o.types_option);
  app.add_flag("--help", help);
  app.add_flag("--version", version);
  app.add_option("objects", o.objects);

  std::vector<const char *> argv = {"xsdt-dtrace"};
  for (const std::string &a : kept)
    argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError &e) {
    return usage_error(e.what());
  }
  for (const std::string &extra : app.remaining()) {
    if (extra == "--")
      continue;
    if (!extra.empty() && extra[0] == '-')
      return usage_error("unknown option '" + extra + "'");
    o.objects.push_back(extra);
  }
  if (help) {
    result.action = CommandLine::Action::Help;
    return result;
  }
  if (version) {
    result.action = CommandLine::Action::Version;
    return result;
  }

  // -I, -D and -U in the order given: -DX -UX is not -UX -DX.
  std::map<const CLI::Option *, std::pair<const char *, size_t>> next = {
      {include_opt, {"-I", 0}},
      {define_opt, {"-D", 0}},
      {undefine_opt, {"-U", 0}}};
  for (const CLI::Option *opt : app.parse_order()) {
    auto it = next.find(opt);
    if (it == next.end())
      continue;
    const std::vector<std::string> &values = opt->results();
    size_t &index = it->second.second;
    if (index < values.size())
      o.preprocessor_options.push_back(it->second.first + values[index++]);
  }

  if (header && object)
    return usage_error("-h and -G cannot be used together");
  if (!header && !object)
    return usage_error("one of -h (header) and -G (object) is required");
  if (o.provider_file.empty())
    return usage_error("-s FILE.d is required");
  o.mode = header ? Mode::Header : Mode::Object;
  if (o.output.empty())
    o.output = default_output(o.provider_file, header ? ".h" : ".o");
  return result;
}

} // namespace xsdt::dtrace
