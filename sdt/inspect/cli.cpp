// Command-line parsing: see cli.h.
#include "cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <utility>

#ifndef XSDT_VERSION
#error "XSDT_VERSION: sdt/inspect/CMakeLists.txt passes the project version"
#endif

namespace xsdt::inspect {
namespace {

constexpr const char *kProgram = "xsdt-inspect";
// The synopsis of the help and of a usage error, after "usage: ".
constexpr const char *kSynopsis =
    "xsdt-inspect list FILE [--json]\n"
    "       xsdt-inspect check FILE... [--only=GROUP,...] "
    "[--ignore-provider=NAME]...\n"
    "       xsdt-inspect parse-arg --arch ARCH ARGS\n"
    "       xsdt-inspect [COMMAND] --help | --version";

struct UsageError {
  std::string message;
};

// `text` re-flowed into lines of at most `width` columns (CLI11 indents
// the lines of a description after the first).
std::string wrap(const std::string &text, std::size_t width) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos)
      end = text.size();
    std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

// CLI11's help, laid out as man pages are: the synopsis (which CLI11's
// "[OPTIONS] FILE" would not make exact), then what the command does, then
// its options.
class Formatter : public CLI::Formatter {
public:
  struct Page {
    std::string synopsis; // "xsdt-inspect list FILE [--json]", lines
    std::string about;    // paragraphs
  };
  std::map<const CLI::App *, Page> pages;

  std::string make_description(const CLI::App *app) const override {
    return pages.count(app) ? "" : CLI::Formatter::make_description(app);
  }
  std::string make_usage(const CLI::App *app, std::string name) const override {
    auto it = pages.find(app);
    if (it == pages.end())
      return CLI::Formatter::make_usage(app, std::move(name));
    return "Usage: " + it->second.synopsis + "\n\n" + it->second.about + "\n";
  }
};

const std::vector<std::string> kCheckGroupNames = {"notes", "sites", "specs",
                                                   "sdt", "consumers"};

CheckGroups groups_named(const std::vector<std::string> &names) {
  auto named = [&](const char *group) {
    return std::find(names.begin(), names.end(), group) != names.end();
  };
  return CheckGroups{named("notes"), named("sites"), named("specs"),
                     named("sdt"), named("consumers")};
}

// The words CLI11 left over in `command` (or at the top level, `command`
// being the app): the positionals beyond the command's own, or an error
// naming the first unknown option.
std::vector<std::string> leftovers(const CLI::App &app,
                                   const CLI::App &command) {
  std::vector<std::string> words;
  for (const std::string &word : command.remaining()) {
    if (word.size() < 2 || word[0] != '-') {
      words.push_back(word);
      continue;
    }
    std::string name = word.substr(0, word.find('='));
    // An option of another command: say whose.
    for (const CLI::App *other : app.get_subcommands({}))
      if (other != &command && other->get_option_no_throw(name))
        throw UsageError{"option " + name + " belongs to '" + kProgram + " " +
                         other->get_name() + "'"};
    throw UsageError{"unknown option " + word};
  }
  return words;
}

} // namespace

std::string usage_text() {
  std::string groups;
  for (const std::string &name : kCheckGroupNames)
    groups += (groups.empty() ? "" : ", ") + name;
  return std::string("usage: ") + kSynopsis + "\nGROUP: " + groups +
         "\nARCH: " + arch_names_text() +
         "\nexit: 0 ok, 1 violations or a bad spec, 2 usage or unreadable "
         "input\n";
}

CommandLine parse_command_line(const std::vector<std::string> &args) {
  CommandLine result;
  Options &o = result.options;

  std::vector<std::string> words = args;
  // `help [COMMAND]` is `[COMMAND] --help`.
  if (!words.empty() && words[0] == "help") {
    words.erase(words.begin());
    words.push_back("--help");
  }
  // Words after `--` are positionals, whatever they look like (CLI11
  // would hand those after a command's last positional to the top level).
  std::vector<std::string> after;
  if (auto mark = std::find(words.begin(), words.end(), "--");
      mark != words.end()) {
    after.assign(mark + 1, words.end());
    words.erase(mark, words.end());
  }

  constexpr std::size_t kColumn = 24, kWidth = 79 - kColumn;
  auto formatter = std::make_shared<Formatter>();
  formatter->column_width(kColumn);
  formatter->label("Positionals", "Arguments");

  CLI::App app{"", kProgram};
  app.formatter(formatter);
  app.set_help_flag("-h,--help", "print this help and exit");
  app.set_version_flag("--version", std::string(kProgram) + " " XSDT_VERSION,
                       "print \"xsdt-inspect VERSION\" and exit");
  // One command; the words after it are its own, even one named "list".
  app.require_subcommand(0, 1);
  app.allow_extras();
  formatter->pages[&app] = {
      kSynopsis,
      wrap("Lists and checks the stapsdt probes (.note.stapsdt) and the "
           "SDT(9) probe records of ELF files of every xsdt architecture, "
           "whatever the host, and decodes the argument specs of stapsdt "
           "notes.",
           79)};
  app.footer(wrap("Exit status: 0 ok; 1 violations (check) or an args string "
                  "that does not parse (parse-arg); 2 a usage error or "
                  "unreadable input.",
                  79) +
             "\n'xsdt-inspect COMMAND --help' shows a command's options.");

  // A command: CLI11 lists it with `summary`; its --help starts with the
  // synopsis and `about`.
  auto add_command = [&](const char *name, const std::string &summary,
                         const std::string &synopsis,
                         const std::string &about) {
    CLI::App *command = app.add_subcommand(name, wrap(summary, kWidth));
    command->group("Commands");
    command->allow_extras(); // leftovers() names the unknown options
    formatter->pages[command] = {synopsis, wrap(about, 79)};
    return command;
  };

  std::string list_file;
  CLI::App *list = add_command(
      "list", "list FILE's probes with their decoded arguments",
      "xsdt-inspect list FILE [--json]",
      "Lists the stapsdt probes of FILE with their addresses and decoded "
      "arguments, then (in a linked file) its SDT(9) probes with their "
      "argument types and sites. Problems in the notes or records are "
      "warnings on stderr.");
  list->add_option("FILE", list_file, "an ELF file of any xsdt architecture")
      ->type_name("");
  list->add_flag("--json", o.json,
                 wrap("print a JSON array instead, one probe a line", kWidth));
  list->footer("Exit status: 0 listed; 2 a usage error or unreadable FILE.");

  std::vector<std::string> check_files;
  std::vector<std::string> only;
  CLI::App *check = add_command(
      "check", "check FILE... for probes a tracer cannot use",
      "xsdt-inspect check FILE... [--only=GROUP,...] "
      "[--ignore-provider=NAME]...",
      "Checks each FILE for what stops a tracer from using its probes: one "
      "line per violation (FILE: PROBE: WHY) on stdout, else one \"ok\" "
      "line per kind of probe checked.");
  check->add_option("FILE", check_files, "ELF files of any xsdt architecture")
      ->type_name("");
  check
      ->add_option(
          "--only", only,
          wrap("run only these groups of checks (default: all):", kWidth) +
              "\n"
              "  notes  note layout, .stapsdt.base, semaphores\n"
              "  sites  the arch's patchable NOP at each site\n"
              "  specs  every arg spec parses and is portable\n"
              "  sdt    the SDT(9) definition and site records\n"
              "  consumers  (only when named) the specs gdb, libbpf, bcc,\n"
              "         perf or stap reject or misread, and the arguments\n"
              "         each loses with them\n" +
              wrap("A relocatable object (.o) can only be checked with "
                   "--only=specs.",
                   kWidth))
      ->option_text("GROUP,...")
      ->delimiter(',')
      ->check(CLI::IsMember(kCheckGroupNames))
      ->allow_extra_args(false);
  check
      ->add_option("--ignore-provider", o.ignored_providers,
                   wrap("leave out the stapsdt probes of provider NAME (such "
                        "as libstdcxx's in a static link) and say how many; "
                        "may be repeated",
                        kWidth))
      ->option_text("NAME")
      ->allow_extra_args(false);
  check->footer(wrap("Exit status: 0 no violations; 1 violations (or no "
                     "probes to check); 2 a usage error or unreadable FILE.",
                     79));

  std::string arch_name, parse_args;
  CLI::App *parse_arg = add_command(
      "parse-arg", "decode an args string without an ELF file",
      "xsdt-inspect parse-arg --arch ARCH ARGS",
      "Decodes ARGS, the args string of one stapsdt note (SIZE@OPERAND specs "
      "separated by spaces, quoted as one word), in the operand syntax of "
      "ARCH, and prints a JSON array of one object per argument.");
  parse_arg->add_option("ARGS", parse_args, "the args string, e.g. '-4@%eax'")
      ->type_name("");
  parse_arg
      ->add_option(
          "--arch", arch_name,
          wrap("the architecture (required), one of: " + arch_names_text(),
               kWidth))
      ->type_name("ARCH")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  parse_arg->footer(wrap("Exit status: 0 decoded (portable or not); 1 ARGS "
                         "does not parse; 2 a usage error.",
                         79));

  std::vector<const char *> argv = {kProgram};
  for (const std::string &w : words)
    argv.push_back(w.c_str());
  try {
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp &) {
      // `help lsit` / `lsit --help`: help for no command is a usage error,
      // not the top-level help.
      if (app.get_subcommands().empty())
        if (auto word = std::find_if(
                words.begin(), words.end(),
                [](const std::string &w) { return !w.starts_with("-"); });
            word != words.end())
          throw UsageError{"unknown command '" + *word + "'"};
      result.action = CommandLine::Action::Help;
      result.text = app.help();
      return result;
    } catch (const CLI::CallForVersion &e) {
      result.action = CommandLine::Action::Version;
      result.text = e.what();
      return result;
    } catch (const CLI::ArgumentMismatch &e) {
      // "--arch: 1 required ARCH missing": the option was the last word
      // (as with getopt, the next word is its value, whatever it is).
      std::string what = e.what();
      std::size_t colon = what.find(": ");
      if (colon != std::string::npos && what.rfind("--", 0) == 0 &&
          what.find(" missing", colon) != std::string::npos)
        throw UsageError{"option " + what.substr(0, colon) + " needs a value"};
      throw UsageError{what};
    } catch (const CLI::ParseError &e) {
      throw UsageError{e.what()};
    }

    // What the top level left over comes before the command, if any.
    if (std::vector<std::string> top = leftovers(app, app); !top.empty())
      throw UsageError{"unknown command '" + top[0] + "'"};
    if (app.get_subcommands().empty())
      throw UsageError{"missing command"};
    const CLI::App &command = *app.get_subcommands()[0];
    std::vector<std::string> extra = leftovers(app, command);
    extra.insert(extra.end(), after.begin(), after.end());

    if (&command == list) {
      o.command = Command::List;
      if (list->count("FILE"))
        o.files.push_back(list_file);
      o.files.insert(o.files.end(), extra.begin(), extra.end());
      if (o.files.size() != 1)
        throw UsageError{"expected exactly one FILE"};
    } else if (&command == check) {
      o.command = Command::Check;
      o.files = check_files;
      o.files.insert(o.files.end(), extra.begin(), extra.end());
      if (check->count("--only"))
        o.groups = groups_named(only);
      if (o.files.empty())
        throw UsageError{"expected at least one FILE"};
    } else {
      o.command = Command::ParseArg;
      if (!parse_arg->count("--arch"))
        throw UsageError{"parse-arg needs --arch ARCH"};
      o.arch = parse_arch(arch_name);
      if (!o.arch)
        throw UsageError{"unknown architecture '" + arch_name +
                         "' (known: " + arch_names_text() + ")"};
      std::vector<std::string> strings;
      if (parse_arg->count("ARGS"))
        strings.push_back(parse_args);
      strings.insert(strings.end(), extra.begin(), extra.end());
      if (strings.size() != 1)
        throw UsageError{"parse-arg takes one args string (quote it)"};
      o.args = strings[0];
    }
  } catch (const UsageError &e) {
    result.action = CommandLine::Action::UsageError;
    result.text = e.message;
  }
  return result;
}

} // namespace xsdt::inspect
