// xsdt-inspect: list and check the stapsdt probes of an ELF file of any
// xsdt architecture, and decode argument specs.
//
// Exit codes: 0 success; 1 violations found (check) or a spec that does not
// parse (parse-arg); 2 usage errors and unreadable input.
#include "checks.h"
#include "describe.h"
#include "elf_image.h"
#include "json.h"
#include "notes.h"

#include <elf.h>

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace xsdt::inspect {
namespace {

constexpr int kOk = 0, kFound = 1, kBadInput = 2;

constexpr const char *kUsage =
    "usage: xsdt-inspect list FILE [--json]\n"
    "       xsdt-inspect check FILE [--only=notes,sites,specs]\n"
    "       xsdt-inspect parse-arg --arch ARCH 'SPEC...'\n"
    "ARCH: x86_64 (x86-64), i386, aarch64, riscv64\n"
    "exit: 0 ok, 1 violations or a bad spec, 2 usage or unreadable input\n";

struct UsageError {
  std::string message;
};

struct Options {
  std::vector<std::string> positional;
  bool json = false;
  std::optional<std::string> only;
  std::optional<std::string> arch;
};

Options parse_options(int argc, char **argv) {
  Options o;
  auto value = [&](int &i, std::string_view arg,
                   std::string_view name) -> std::optional<std::string> {
    if (arg == name) {
      if (i + 1 >= argc)
        throw UsageError{std::string(name) + " needs a value"};
      return std::string(argv[++i]);
    }
    if (arg.size() > name.size() && arg.substr(0, name.size()) == name &&
        arg[name.size()] == '=')
      return std::string(arg.substr(name.size() + 1));
    return std::nullopt;
  };
  bool options_done = false;
  for (int i = 2; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (options_done || arg.substr(0, 2) != "--") {
      o.positional.emplace_back(arg);
    } else if (arg == "--") {
      options_done = true;
    } else if (arg == "--json") {
      o.json = true;
    } else if (auto v = value(i, arg, "--only")) {
      o.only = v;
    } else if (auto a = value(i, arg, "--arch")) {
      o.arch = a;
    } else {
      throw UsageError{"unknown option " + std::string(arg)};
    }
  }
  return o;
}

CheckGroups parse_groups(const std::string &list) {
  CheckGroups groups{false, false, false};
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma - start);
    if (name == "notes")
      groups.notes = true;
    else if (name == "sites")
      groups.sites = true;
    else if (name == "specs")
      groups.specs = true;
    else
      throw UsageError{"unknown check group '" + name +
                       "' (notes, sites, specs)"};
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return groups;
}

const std::string &one_file(const Options &o) {
  if (o.positional.size() != 1)
    throw UsageError{"expected exactly one FILE"};
  return o.positional[0];
}

void reject(const Options &o, bool json, bool only, bool arch) {
  if ((o.json && !json) || (o.only && !only) || (o.arch && !arch))
    throw UsageError{"option not valid for this command"};
}

// Reads the file and its notes; InputErrors name the file.
std::pair<ElfImage, NoteScan> load(const std::string &path,
                                   bool allow_relocatable) {
  try {
    ElfImage image = ElfImage::load(path);
    if (image.elf_type() == ET_REL && !allow_relocatable)
      throw InputError("relocatable object: probe addresses are not final; "
                       "check the linked file, or use --only=specs");
    NoteScan scan = scan_notes(image);
    return {std::move(image), std::move(scan)};
  } catch (const InputError &e) {
    throw InputError(path + ": " + e.what());
  }
}

void list_text(const std::string &path, const ElfImage &image,
               const NoteScan &scan) {
  Arch arch = image.arch();
  std::cout << path << ": " << arch_name(arch) << " ELF"
            << (image.is_64() ? "64" : "32") << ", " << scan.probes.size()
            << " stapsdt probes\n";
  for (const ProbeNote &note : scan.probes) {
    std::cout << note.provider << ":" << note.name << " @" << hex(note.pc)
              << " base " << hex(note.base) << " semaphore "
              << hex(note.semaphore) << " args " << json_quote(note.args)
              << "\n";
    auto specs = split_arg_specs(note.args);
    if (!specs) {
      std::cout << "  args: " << specs.error().to_string() << "\n";
      continue;
    }
    for (std::size_t i = 0; i < specs->size(); ++i) {
      std::string_view text = (*specs)[i].text;
      auto loc = parse_arg_spec(text, arch);
      std::cout << "  arg" << i << " " << text << ": "
                << (loc ? arg_text(*loc, arch) : loc.error().to_string())
                << "\n";
    }
  }
}

void list_json(const ElfImage &image, const NoteScan &scan) {
  Arch arch = image.arch();
  std::vector<std::string> items;
  for (const ProbeNote &note : scan.probes) {
    std::vector<std::string> args;
    auto specs = split_arg_specs(note.args);
    if (!specs)
      args.push_back(arg_error_json(note.args, specs.error()));
    for (std::size_t i = 0; specs && i < specs->size(); ++i) {
      std::string_view text = (*specs)[i].text;
      auto loc = parse_arg_spec(text, arch);
      args.push_back(loc ? arg_json(*loc, arch)
                         : arg_error_json(text, loc.error()));
    }
    items.push_back(JsonObject()
                        .add_string("provider", note.provider)
                        .add_string("name", note.name)
                        .add_string("pc", hex(note.pc))
                        .add_string("base", hex(note.base))
                        .add_string("semaphore", hex(note.semaphore))
                        .add_string("args", note.args)
                        .add_raw("arguments", json_inline_array(args))
                        .str());
  }
  std::cout << json_array(items) << "\n";
}

int cmd_list(const Options &o) {
  reject(o, true, false, false);
  const std::string &path = one_file(o);
  auto [image, scan] = load(path, true);
  for (const std::string &problem : scan.problems)
    std::cerr << "xsdt-inspect: " << path << ": warning: " << problem << "\n";
  if (o.json)
    list_json(image, scan);
  else
    list_text(path, image, scan);
  return kOk;
}

int cmd_check(const Options &o) {
  reject(o, false, true, false);
  const std::string &path = one_file(o);
  CheckGroups groups = o.only ? parse_groups(*o.only) : CheckGroups{};
  auto [image, scan] = load(path, !groups.notes && !groups.sites);
  CheckReport report;
  try {
    report = run_checks(image, scan, groups);
  } catch (const InputError &e) {
    throw InputError(path + ": " + e.what());
  }
  for (const std::string &v : report.violations)
    std::cout << path << ": " << v << "\n";
  if (!report.violations.empty())
    return kFound;
  std::cout << "xsdt-inspect: ok: " << report.probes << " probes, "
            << report.sites << " sites, " << report.args << " args checked\n";
  return kOk;
}

int cmd_parse_arg(const Options &o) {
  reject(o, false, false, true);
  if (!o.arch)
    throw UsageError{"parse-arg needs --arch ARCH"};
  std::optional<Arch> arch = parse_arch(*o.arch);
  if (!arch)
    throw UsageError{"unknown architecture '" + *o.arch + "'"};
  if (o.positional.size() != 1)
    throw UsageError{"parse-arg takes one args string (quote it)"};
  auto locs = parse_arg_specs(o.positional[0], *arch);
  if (!locs) {
    std::cerr << "xsdt-inspect: parse-arg: " << locs.error().to_string()
              << "\n";
    return kFound;
  }
  std::vector<std::string> items;
  for (const ArgLocation &loc : *locs)
    items.push_back(arg_json(loc, *arch));
  std::cout << json_array(items) << "\n";
  return kOk;
}

int run(int argc, char **argv) {
  if (argc < 2)
    throw UsageError{"missing command"};
  std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return kOk;
  }
  Options options = parse_options(argc, argv);
  if (command == "list")
    return cmd_list(options);
  if (command == "check")
    return cmd_check(options);
  if (command == "parse-arg")
    return cmd_parse_arg(options);
  throw UsageError{"unknown command '" + command + "'"};
}

} // namespace
} // namespace xsdt::inspect

int main(int argc, char **argv) {
  using namespace xsdt::inspect;
  try {
    return run(argc, argv);
  } catch (const UsageError &e) {
    std::cerr << "xsdt-inspect: " << e.message << "\n" << kUsage;
  } catch (const std::exception &e) {
    std::cerr << "xsdt-inspect: " << e.what() << "\n";
  }
  return kBadInput;
}
