// xsdt-inspect: list and check the stapsdt probes and the SDT(9) probe
// records of an ELF file of any xsdt architecture, and decode argument specs.
// The command line is parsed in cli.cpp; xsdt-inspect.1 is the manual.
//
// Exit codes: 0 success; 1 violations found (check) or a spec that does not
// parse (parse-arg); 2 usage errors and unreadable input.
#include "checks.h"
#include "cli.h"
#include "consumers.h"
#include "describe.h"
#include "elf_image.h"
#include "notes.h"
#include "sdt_records.h"
#include "xsdt/arch_registry.h"

#include <elf.h>

#include <algorithm>
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
  const std::string &path = o.files[0];
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
  if (groups.notes || groups.sites || groups.specs || groups.consumers)
    std::cout << "xsdt-inspect: ok: " << report.probes << " probes, "
              << report.sites << " sites, " << report.args << " args checked"
              << in_file << "\n";
  if (sdt && sdt->present)
    std::cout << "xsdt-inspect: ok: " << report.sdt_probes << " SDT probes, "
              << report.sdt_sites << " SDT sites checked" << in_file << "\n";
  return false;
}

int cmd_check(const Options &o) {
  bool violations = false;
  for (const std::string &path : o.files)
    violations |= check_file(path, o.groups, o, o.files.size() > 1);
  return violations ? kFound : kOk;
}

int cmd_parse_arg(const Options &o) {
  const Arch arch = *o.arch;
  auto locs = parse_arg_specs(o.args, arch);
  if (!locs) {
    std::cerr << "xsdt-inspect: parse-arg: " << locs.error().to_string()
              << "\n";
    return kFound;
  }
  // Each spec's verdict per consumer, and which consumers lose it: by its
  // own rejection or by an earlier argument's (gdb, libbcc, libbpf).
  std::vector<std::vector<ConsumerVerdict>> verdicts;
  for (const ArgLocation &loc : *locs)
    verdicts.push_back(judge_arg(loc, arch));
  const auto probe = judge_probe(verdicts);
  Json items = Json::array();
  for (std::size_t i = 0; i < locs->size(); ++i) {
    Json item = arg_json((*locs)[i], arch);
    Json consumers = Json::object(), reasons = Json::object();
    for (const ConsumerVerdict &v : verdicts[i]) {
      std::string name(consumer_name(v.consumer));
      consumers[name] = std::string(verdict_name(v.verdict));
      if (!v.reason.empty())
        reasons[name] = v.reason;
    }
    Json lost = Json::array();
    for (const ProbeConsumerReport &r : probe)
      if (std::find(r.lost.begin(), r.lost.end(), i) != r.lost.end())
        lost.push_back(std::string(consumer_name(r.consumer)));
    item["consumers"] = std::move(consumers);
    item["consumer_reasons"] = std::move(reasons);
    item["lost_by"] = std::move(lost);
    items.push_back(std::move(item));
  }
  std::cout << json_lines(items) << "\n";
  return kOk;
}

int run(const Options &o) {
  switch (o.command) {
  case Command::List:
    return cmd_list(o);
  case Command::Check:
    return cmd_check(o);
  case Command::ParseArg:
    return cmd_parse_arg(o);
  }
  return kBadInput;
}

} // namespace
} // namespace xsdt::inspect

int main(int argc, char **argv) {
  using namespace xsdt::inspect;
  CommandLine cl = parse_command_line({argv + 1, argv + argc});
  switch (cl.action) {
  case CommandLine::Action::Help:
  case CommandLine::Action::Version:
    std::cout << cl.text << (cl.text.ends_with('\n') ? "" : "\n");
    return kOk;
  case CommandLine::Action::UsageError:
    std::cerr << "xsdt-inspect: " << cl.text << "\n" << usage_text();
    return kBadInput;
  case CommandLine::Action::Run:
    break;
  }
  try {
    return run(cl.options);
  } catch (const std::exception &e) {
    std::cerr << "xsdt-inspect: " << e.what() << "\n";
  }
  return kBadInput;
}
