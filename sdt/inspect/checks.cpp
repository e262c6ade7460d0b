#include "checks.h"

#include "consumers.h"

#include "xsdt/arch_port.h"

#include <algorithm>
#include <array>
#include <span>

namespace xsdt::inspect {
namespace {

std::string bytes_text(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    if (!out.empty())
      out += ' ';
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

void check_note(const ElfImage &image, const ProbeNote &note,
                std::vector<std::string> &out) {
  auto report = [&](const std::string &why) {
    out.push_back(note.label() + ": " + why);
  };
  if (note.provider.empty() || note.name.empty())
    report("empty provider or probe name");
  if (note.trailing != 0)
    report("descsz " + std::to_string(note.descsz) + " leaves " +
           std::to_string(note.trailing) + " bytes after the args string");
  if (const Section *base = image.find(".stapsdt.base");
      base && note.base != base->addr)
    report("base " + hex(note.base) + " differs from .stapsdt.base at " +
           hex(base->addr));
  if (note.semaphore == 0)
    return;
  std::uint64_t sem = adjusted(image, note, note.semaphore);
  const Section *probes = image.find(".probes");
  if (!probes)
    report("semaphore " + hex(sem) + " but no .probes section");
  else if (!probes->contains(sem, 2))
    report("semaphore " + hex(sem) + " lies outside .probes [" +
           hex(probes->addr) + ", " + hex(probes->addr + probes->size) + ")");
}

void check_site(const ElfImage &image, const ProbeNote &note,
                std::vector<std::string> &out) {
  std::uint64_t pc = adjusted(image, note, note.pc);
  // Name the address actually inspected when the base shift moved it.
  std::string moved = pc == note.pc ? "" : "adjusted pc " + hex(pc) + ": ";
  auto report = [&](const std::string &why) {
    out.push_back(note.label() + ": " + moved + why);
  };
  const Section *text = image.section_at(pc);
  if (!text) {
    report("pc " + hex(pc) + " lies in no section");
    return;
  }
  if (!text->executable() || !text->has_contents()) {
    report("pc " + hex(pc) + " lies in non-executable section " + text->name);
    return;
  }
  const ArchDescriptor &arch = image.arch().descriptor();
  if (pc % arch.site_align != 0)
    report("pc " + hex(pc) + " is not " + std::to_string(arch.site_align) +
           "-byte aligned");
  // The site a tracer can overwrite with a trap, or later a jump, in a
  // single step (facts sheet §4): the arch's USDT site NOP, or on an arch
  // with a second instruction set (armhf: Thumb-2 and ARM state) the patch
  // NOP of either.
  std::vector<const SiteEncoding *> ours;
  if (arch.usdt_site)
    ours.push_back(arch.usdt_site);
  else
    for (const SiteEncoding &patch : arch.site_encodings)
      if (arch.takes_jumps(patch))
        ours.push_back(&patch);
  std::size_t widest = 0;
  for (const SiteEncoding &e : arch.site_encodings)
    widest = std::max(widest, e.nop.size());
  std::uint64_t room = text->addr + text->size - pc;
  auto found = image.contents(*text).subspan(
      static_cast<std::size_t>(pc - text->addr),
      static_cast<std::size_t>(std::min<std::uint64_t>(room, widest)));
  auto holds = [&](const SiteEncoding &e) {
    return found.size() >= e.nop.size() &&
           std::equal(e.nop.begin(), e.nop.end(), found.begin());
  };
  std::string expected;
  for (const SiteEncoding *patch : ours) {
    if (holds(*patch))
      return;
    expected +=
        (expected.empty() ? "expected " : " or ") + bytes_text(patch->nop);
  }
  const std::size_t patch_size = arch.usdt_site_encoding().nop.size();
  // Another implementation's site (sys/sdt.h's), or an earlier one of
  // ours: a trap fits, but a jump does not, or a kernel tracer endangers
  // the program there. The longest match names it (x86-64's `nop; nop10`
  // starts with sys/sdt.h's `nop`).
  const SiteEncoding *other = nullptr;
  for (const SiteEncoding &e : arch.site_encodings)
    if (!arch.takes_jumps(e) && &e != arch.usdt_site && holds(e) &&
        (!other || e.nop.size() > other->nop.size()))
      other = &e;
  if (other && other->hazard) {
    report(std::string(other->what) +
           " at the probe address: " + other->hazard + "; " + expected);
    return;
  }
  if (other) {
    report(std::string(other->what) + ": too small for the " +
           std::to_string(patch_size) + "-byte patch; " + expected);
    return;
  }
  if (found.size() < patch_size)
    report("the site runs past the end of " + text->name);
  else
    report("not a patchable nop: found " +
           bytes_text(found.first(std::min(found.size(), patch_size))) + ", " +
           expected);
}

void check_specs(const ElfImage &image, const ProbeNote &note,
                 CheckReport &report) {
  auto specs = split_arg_specs(note.args);
  if (!specs) {
    report.violations.push_back(note.label() + ": args '" + note.args +
                                "': " + specs.error().to_string());
    return;
  }
  for (std::size_t i = 0; i < specs->size(); ++i) {
    const SpecText &spec = (*specs)[i];
    std::string prefix = note.label() + ": arg" + std::to_string(i) + " '" +
                         std::string(spec.text) + "': ";
    ++report.args;
    auto loc = parse_arg_spec(spec.text, image.arch());
    if (!loc)
      report.violations.push_back(prefix + loc.error().to_string());
    else if (auto why = portability_violation(*loc, image.arch()))
      report.violations.push_back(prefix + *why);
  }
}

// One line per spec that a consumer rejects or misreads, naming each such
// consumer and its rule, then one line per consumer that loses arguments
// the specs themselves do not (gdb and libbcc drop every argument after a
// rejected one; libbpf cannot attach the probe).
void check_consumers(const ElfImage &image, const ProbeNote &note,
                     CheckReport &report) {
  auto locs = parse_arg_specs(note.args, image.arch());
  if (!locs)
    return; // the specs group reports it
  std::vector<std::vector<ConsumerVerdict>> verdicts;
  for (std::size_t i = 0; i < locs->size(); ++i) {
    const ArgLocation &loc = (*locs)[i];
    verdicts.push_back(judge_arg(loc, image.arch()));
    std::string line;
    for (const ConsumerVerdict &v : verdicts.back()) {
      if (v.verdict != Verdict::Rejected && v.verdict != Verdict::Misread)
        continue;
      line += (line.empty() ? "" : "; ") +
              std::string(consumer_name(v.consumer)) + " " +
              std::string(verdict_name(v.verdict)) + " (" + v.reason + ")";
    }
    if (!line.empty())
      report.violations.push_back(note.label() + ": arg" + std::to_string(i) +
                                  " '" + loc.spec + "': " + line);
  }
  for (const ProbeConsumerReport &r : judge_probe(verdicts)) {
    if (r.lost.size() == r.rejected.size())
      continue;
    std::string lost;
    for (std::size_t i : r.lost)
      lost += (lost.empty() ? "arg" : ", arg") + std::to_string(i);
    report.violations.push_back(
        note.label() + ": " + std::string(consumer_name(r.consumer)) +
        (r.probe_lost ? " cannot attach the probe: loses " : " loses ") + lost +
        " (first rejected: arg" + std::to_string(r.rejected.front()) + ")");
  }
}

void check_sdt(const SdtScan &sdt, CheckReport &report) {
  for (const SdtDefinition &def : sdt.definitions) {
    ++report.sdt_probes;
    if (!def.valid())
      report.violations.push_back(def.label() + ": " + def.problem);
  }
  for (const SdtSiteRecord &site : sdt.sites) {
    ++report.sdt_sites;
    if (site.valid())
      continue;
    // Name the probe when the record names a valid one.
    std::string probe = site.definition == SdtSiteRecord::kNoDefinition
                            ? ""
                            : " (" + sdt.definitions[site.definition].id + ")";
    report.violations.push_back(site.label() + probe + ": " + site.problem);
  }
}

} // namespace

std::uint64_t adjusted(const ElfImage &image, const ProbeNote &note,
                       std::uint64_t address) {
  const Section *base = image.find(".stapsdt.base");
  if (!base || note.base == 0)
    return address;
  return (address + (base->addr - note.base)) & image.address_mask();
}

CheckReport run_checks(const ElfImage &image, const NoteScan &scan,
                       const SdtScan *sdt, const CheckGroups &groups) {
  CheckReport report;
  // Checking nothing is a failure: name what the selected groups missed.
  const bool stapsdt_groups =
      groups.notes || groups.sites || groups.specs || groups.consumers;
  const bool sdt_found = groups.sdt && sdt && sdt->present;
  if (stapsdt_groups && scan.probes.empty() && !sdt_found)
    report.violations.push_back(groups.sdt ? "no stapsdt or SDT probes"
                                           : "no stapsdt probes");
  if (!stapsdt_groups && groups.sdt && !sdt_found)
    report.violations.push_back("no SDT probes");
  if (groups.notes)
    report.violations.insert(report.violations.end(), scan.problems.begin(),
                             scan.problems.end());
  for (const ProbeNote &note : scan.probes) {
    ++report.probes;
    if (groups.notes)
      check_note(image, note, report.violations);
    if (groups.sites) {
      ++report.sites;
      check_site(image, note, report.violations);
    }
    if (groups.specs)
      check_specs(image, note, report);
    if (groups.consumers)
      check_consumers(image, note, report);
  }
  if (sdt_found)
    check_sdt(*sdt, report);
  return report;
}

} // namespace xsdt::inspect
