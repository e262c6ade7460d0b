// xsdt-inspect: list and check the stapsdt probes and the SDT(9) probe
// records of an ELF file of any xsdt architecture, and decode argument specs.
//
// Exit codes: 0 success; 1 violations found (check) or a spec that does not
// parse (parse-arg); 2 usage errors and unreadable input.
#include "checks.h"
#include "describe.h"
#include "elf_image.h"
#include "notes.h"
#include "sdt_records.h"
#include "xsdt/arch_registry.h"

#include <elf.h>

#include <cstdint>
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
    "       xsdt-inspect check FILE... [--only=notes,sites,specs,sdt]\n"
    "                          [--ignore-provider=NAME]...\n"
    "       xsdt-inspect parse-arg --arch ARCH 'SPEC...'\n"
    "exit: 0 ok, 1 violations or a bad spec, 2 usage or unreadable input\n";

// The usage, with the arches of this build.
std::string usage() { return kUsage + ("ARCH: " + arch_names_text() + "\n"); }

struct UsageError {
  std::string message;
};

struct Options {
  std::vector<std::string> positional;
  bool json = false;
  std::optional<std::string> only;
  std::optional<std::string> arch;
  // check: probes of these providers are not the file's own (e.g. the
  // libstdc++ probes in a static link); left out and counted.
  std::vector<std::string> ignored_providers;
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
    } else if (auto p = value(i, arg, "--ignore-provider")) {
      o.ignored_providers.push_back(*p);
    } else {
      throw UsageError{"unknown option " + std::string(arg)};
    }
  }
  return o;
}

CheckGroups parse_groups(const std::string &list) {
  CheckGroups groups{false, false, false, false};
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
    else if (name == "sdt")
      groups.sdt = true;
    else
      throw UsageError{"unknown check group '" + name +
                       "' (notes, sites, specs, sdt)"};
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

void reject(const Options &o, bool json, bool only, bool arch,
            bool ignore = false) {
  if ((o.json && !json) || (o.only && !only) || (o.arch && !arch) ||
      (!o.ignored_providers.empty() && !ignore))
    throw UsageError{"option not valid for this command"};
}

struct Loaded {
  ElfImage image;
  NoteScan notes;
  // The SDT records, when asked for and the file is linked: in a
  // relocatable object their self-relative fields are still relocations.
  std::optional<SdtScan> sdt;
};

bool has_sdt_sections(const ElfImage &image) {
  return image.find(kSdtProbesSection) || image.find(kSdtSitesSection);
}

// Reads the file, its notes and (with want_sdt) its SDT records;
// InputErrors name the file.
Loaded load(const std::string &path, bool allow_relocatable, bool want_sdt) {
  try {
    ElfImage image = ElfImage::load(path);
    if (image.elf_type() == ET_REL && !allow_relocatable)
      throw InputError("relocatable object: probe addresses are not final; "
                       "check the linked file, or use --only=specs");
    NoteScan notes = scan_notes(image);
    std::optional<SdtScan> sdt;
    if (want_sdt && image.elf_type() != ET_REL)
      sdt = scan_sdt(image, basename_of(path));
    return {std::move(image), std::move(notes), std::move(sdt)};
  } catch (const InputError &e) {
    throw InputError(path + ": " + e.what());
  }
}

std::size_t valid_definitions(const SdtScan &sdt) {
  std::size_t n = 0;
  for (const SdtDefinition &def : sdt.definitions)
    n += def.valid();
  return n;
}

// What list shows only as warnings: definitions that are invalid and
// site records that name no valid definition (the others are listed with
// their probe).
void warn_sdt(const std::string &path, const SdtScan &sdt) {
  for (const SdtDefinition &def : sdt.definitions)
    if (!def.valid())
      std::cerr << "xsdt-inspect: " << path << ": warning: " << def.label()
                << ": " << def.problem << "\n";
  for (const SdtSiteRecord &site : sdt.sites)
    if (site.definition == SdtSiteRecord::kNoDefinition)
      std::cerr << "xsdt-inspect: " << path << ": warning: " << site.label()
                << ": " << site.problem << "\n";
}

void list_sdt_text(const SdtScan &sdt) {
  for (const SdtDefinition &def : sdt.definitions) {
    if (!def.valid())
      continue;
    std::cout << "sdt " << def.id << " probe " << hex(def.probe) << " argc "
              << def.argc << (def.typed() ? "" : " untyped")
              << (def.translated() ? " translated" : "") << "\n";
    for (unsigned i = 0; i < def.argc; ++i) {
      std::cout << "  arg" << i << " " << json_quote(def.native_types[i]);
      if (def.translated())
        std::cout << " -> " << json_quote(def.translated_types[i]);
      std::cout << "\n";
    }
    for (const SdtSiteRecord &site : sdt.sites) {
      if (site.definition != def.index)
        continue;
      std::cout << "  site " << hex(site.site) << " target " << hex(site.target)
                << " function "
                << (site.function.empty() ? "(none)" : site.function);
      if (!site.valid())
        std::cout << " [invalid: " << site.problem << "]";
      std::cout << "\n";
    }
  }
}

Json sdt_json_items(const SdtScan &sdt) {
  Json items = Json::array();
  for (const SdtDefinition &def : sdt.definitions) {
    if (!def.valid())
      continue;
    Json args = Json::array(), sites = Json::array();
    for (unsigned i = 0; i < def.argc; ++i) {
      Json arg = Json::object();
      arg["native"] = json_text(def.native_types[i]);
      arg["translated"] = json_text(def.translated_types[i]);
      args.push_back(std::move(arg));
    }
    for (const SdtSiteRecord &site : sdt.sites) {
      if (site.definition != def.index)
        continue;
      Json obj = Json::object();
      obj["site"] = hex(site.site);
      obj["target"] = hex(site.target);
      obj["function"] = json_text(site.function);
      obj["valid"] = site.valid();
      if (!site.valid())
        obj["problem"] = json_text(site.problem);
      sites.push_back(std::move(obj));
    }
    Json item = Json::object();
    item["kind"] = "sdt";
    item["id"] = json_text(def.id);
    item["provider"] = json_text(def.provider);
    item["module"] = json_text(def.module);
    item["function"] = json_text(def.function);
    item["name"] = json_text(def.name);
    item["probe"] = hex(def.probe);
    item["argc"] = std::int64_t{def.argc};
    item["typed"] = def.typed();
    item["translated"] = def.translated();
    item["arguments"] = std::move(args);
    item["sites"] = std::move(sites);
    items.push_back(std::move(item));
  }
  return items;
}

void list_text(const std::string &path, const ElfImage &image,
               const NoteScan &scan, const std::optional<SdtScan> &sdt) {
  Arch arch = image.arch();
  std::cout << path << ": " << arch_name(arch) << " ELF"
            << (image.is_64() ? "64" : "32") << ", " << scan.probes.size()
            << " stapsdt probes";
  if (sdt)
    std::cout << ", " << valid_definitions(*sdt) << " SDT probes";
  std::cout << "\n";
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
  if (sdt)
    list_sdt_text(*sdt);
}

void list_json(const ElfImage &image, const NoteScan &scan,
               const std::optional<SdtScan> &sdt) {
  Arch arch = image.arch();
  Json items = Json::array();
  for (const ProbeNote &note : scan.probes) {
    Json args = Json::array();
    auto specs = split_arg_specs(note.args);
    if (!specs)
      args.push_back(arg_error_json(note.args, specs.error()));
    for (std::size_t i = 0; specs && i < specs->size(); ++i) {
      std::string_view text = (*specs)[i].text;
      auto loc = parse_arg_spec(text, arch);
      args.push_back(loc ? arg_json(*loc, arch)
                         : arg_error_json(text, loc.error()));
    }
    Json item = Json::object();
    item["kind"] = "stapsdt";
    item["provider"] = json_text(note.provider);
    item["name"] = json_text(note.name);
    item["pc"] = hex(note.pc);
    item["base"] = hex(note.base);
    item["semaphore"] = hex(note.semaphore);
    item["args"] = json_text(note.args);
    item["arguments"] = std::move(args);
    items.push_back(std::move(item));
  }
  if (sdt)
    for (Json &item : sdt_json_items(*sdt))
      items.push_back(std::move(item));
  std::cout << json_lines(items) << "\n";
}

int cmd_list(const Options &o) {
  reject(o, true, false, false);
  const std::string &path = one_file(o);
  auto [image, scan, sdt] = load(path, true, true);
  for (const std::string &problem : scan.problems)
    std::cerr << "xsdt-inspect: " << path << ": warning: " << problem << "\n";
  if (sdt)
    warn_sdt(path, *sdt);
  else if (has_sdt_sections(image))
    std::cerr << "xsdt-inspect: " << path
              << ": warning: relocatable object: its SDT records are "
                 "resolved by the link; list the linked file\n";
  if (o.json)
    list_json(image, scan, sdt);
  else
    list_text(path, image, scan, sdt);
  return kOk;
}

// Leaves out the notes of the ignored providers; returns how many per
// provider.
std::vector<std::pair<std::string, std::size_t>>
drop_ignored(NoteScan &scan, const std::vector<std::string> &providers) {
  std::vector<std::pair<std::string, std::size_t>> dropped;
  for (const std::string &provider : providers) {
    std::size_t before = scan.probes.size();
    std::erase_if(scan.probes, [&](const ProbeNote &note) {
      return note.provider == provider;
    });
    dropped.emplace_back(provider, before - scan.probes.size());
  }
  return dropped;
}

// Checks one file; returns whether it has violations.
bool check_file(const std::string &path, const CheckGroups &groups,
                const Options &o, bool name_file) {
  auto [image, scan, sdt] =
      load(path, !groups.notes && !groups.sites && !groups.sdt, groups.sdt);
  std::string in_file = name_file ? " in " + path : "";
  for (const auto &[provider, count] : drop_ignored(scan, o.ignored_providers))
    if (count)
      std::cout << "xsdt-inspect: ignored: " << count << " probes of provider "
                << provider << in_file << "\n";
  CheckReport report;
  try {
    report = run_checks(image, scan, sdt ? &*sdt : nullptr, groups);
  } catch (const InputError &e) {
    throw InputError(path + ": " + e.what());
  }
  for (const std::string &v : report.violations)
    std::cout << path << ": " << v << "\n";
  if (!report.violations.empty())
    return true;
  // One line per kind of probe checked.
  if (groups.notes || groups.sites || groups.specs)
    std::cout << "xsdt-inspect: ok: " << report.probes << " probes, "
              << report.sites << " sites, " << report.args << " args checked"
              << in_file << "\n";
  if (sdt && sdt->present)
    std::cout << "xsdt-inspect: ok: " << report.sdt_probes << " SDT probes, "
              << report.sdt_sites << " SDT sites checked" << in_file << "\n";
  return false;
}

int cmd_check(const Options &o) {
  reject(o, false, true, false, true);
  if (o.positional.empty())
    throw UsageError{"expected at least one FILE"};
  CheckGroups groups = o.only ? parse_groups(*o.only) : CheckGroups{};
  bool violations = false;
  for (const std::string &path : o.positional)
    violations |= check_file(path, groups, o, o.positional.size() > 1);
  return violations ? kFound : kOk;
}

int cmd_parse_arg(const Options &o) {
  reject(o, false, false, true);
  if (!o.arch)
    throw UsageError{"parse-arg needs --arch ARCH"};
  std::optional<Arch> arch = parse_arch(*o.arch);
  if (!arch)
    throw UsageError{"unknown architecture '" + *o.arch +
                     "' (known: " + arch_names_text() + ")"};
  if (o.positional.size() != 1)
    throw UsageError{"parse-arg takes one args string (quote it)"};
  auto locs = parse_arg_specs(o.positional[0], *arch);
  if (!locs) {
    std::cerr << "xsdt-inspect: parse-arg: " << locs.error().to_string()
              << "\n";
    return kFound;
  }
  Json items = Json::array();
  for (const ArgLocation &loc : *locs)
    items.push_back(arg_json(loc, *arch));
  std::cout << json_lines(items) << "\n";
  return kOk;
}

int run(int argc, char **argv) {
  if (argc < 2)
    throw UsageError{"missing command"};
  std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << usage();
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
    std::cerr << "xsdt-inspect: " << e.message << "\n" << usage();
  } catch (const std::exception &e) {
    std::cerr << "xsdt-inspect: " << e.what() << "\n";
  }
  return kBadInput;
}
