// The consumer's probe selection (xsdt_enable_probes): the catalogues of
// the SDT and USDT probes of the process, a description matched against
// them, and the probe entries the handle keeps for xsdt_go(). Separate
// from the session because selection only reads the runtimes' lists and
// patches nothing; it is also the only part of the consumer that reads ELF
// files (to name the function holding a USDT site).
#include "consumer_handle.h"
#include "object_symbols.h"
#include "probe_description.h"
#include "status.h"
#include "xsdt/argspec.h"
#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace xsdt::rt::consumer {
namespace {

// ---- Probe catalogues -------------------------------------------------------

struct SdtCandidate {
  std::string id, provider, module, function, name;
  int argc = 0;
  bool typed = true;
  std::vector<std::string> native_types, translated_types;
  const xsdt_sdt_probe *probe = nullptr;
};

void collect_sdt(const xsdt_sdt_probe_info *info, void *user) {
  auto *out = static_cast<std::vector<SdtCandidate> *>(user);
  SdtCandidate c;
  c.id = info->id ? info->id : "";
  c.provider = info->provider ? info->provider : "";
  c.module = info->module ? info->module : "";
  c.function = info->function ? info->function : "";
  c.name = info->name ? info->name : "";
  c.argc = std::clamp(info->argc, 0, XSDT_SDT_MAX_ARGS);
  c.typed = info->typed != 0;
  for (int i = 0; i < c.argc; ++i) {
    c.native_types.push_back(info->native_types && info->native_types[i]
                                 ? info->native_types[i]
                                 : "");
    c.translated_types.push_back(info->translated_types &&
                                         info->translated_types[i]
                                     ? info->translated_types[i]
                                     : "");
  }
  c.probe = info->probe;
  out->push_back(std::move(c));
}

struct UsdtNote {
  std::string provider, name, args, object;
  std::uintptr_t pc = 0;
};

void collect_usdt(const xsdt_probe_info *info, void *user) {
  auto *out = static_cast<std::vector<UsdtNote> *>(user);
  out->push_back(UsdtNote{info->provider, info->name, info->args,
                          info->object ? info->object : "", info->pc});
}

// ---- API bodies (may throw std::bad_alloc; the C entry points catch it) -----

bool already_selected(const xsdt_hdl &h, const std::string &id,
                      ProbeEntry **found) {
  for (const auto &p : h.probes)
    if (p->id == id) {
      *found = p.get();
      return true;
    }
  return false;
}

} // namespace

int enable_probes_impl(xsdt_hdl *h, const char *description, xsdt_mode mode) {
  if (h->state != State::kConfiguring)
    return bad_state(h, "xsdt_enable_probes");
  ProbeDescription want;
  if (const char *why = parse_probe_description(description, &want))
    return fail(h, XSDT_ERR_BAD_PATTERN,
                "xsdt_enable_probes: '%s' is not a probe description "
                "[[[provider:]module:]function:]name: %s",
                description ? description : "(null)", why);
  // A C caller may pass any int; read the bits without assuming the enum's
  // range.
  std::underlying_type_t<xsdt_mode> raw_mode;
  static_assert(sizeof raw_mode == sizeof mode);
  std::memcpy(&raw_mode, &mode, sizeof raw_mode);
  if (raw_mode != XSDT_MODE_AUTO && raw_mode != XSDT_MODE_JUMP &&
      raw_mode != XSDT_MODE_TRAP)
    return fail(h, XSDT_ERR_BAD_MODE,
                "xsdt_enable_probes: '%s': mode %lld is not XSDT_MODE_AUTO, "
                "_JUMP or _TRAP",
                description, static_cast<long long>(raw_mode));

  xsdt_error err{};
  std::vector<SdtCandidate> sdt;
  if (xsdt_sdt_list(collect_sdt, &sdt, &err) < 0)
    return fail(h, err.code, "xsdt_enable_probes: '%s': listing SDT probes: %s",
                description, err.message);
  std::vector<UsdtNote> notes;
  if (xsdt_list(collect_usdt, &notes, &err) < 0)
    return fail(h, err.code,
                "xsdt_enable_probes: '%s': listing USDT probes: %s",
                description, err.message);

  // Entries matched by this call: existing ones (selected before) and new
  // ones, committed only if the whole call succeeds.
  std::vector<std::unique_ptr<ProbeEntry>> fresh;
  std::set<std::string> matched; // ids
  auto check_mode = [&](ProbeEntry *existing, xsdt_mode resolved) {
    if (mode == XSDT_MODE_AUTO || existing->desc.mode == resolved)
      return 0;
    return fail(h, XSDT_ERR_MODE_CONFLICT,
                "xsdt_enable_probes: '%s': probe %s is already selected in "
                "%s mode, not %s",
                description, existing->id.c_str(),
                mode_name(existing->desc.mode), mode_name(resolved));
  };

  for (SdtCandidate &c : sdt) {
    if (!want.matches(c.provider, c.module, c.function, c.name))
      continue;
    xsdt_mode resolved = mode == XSDT_MODE_AUTO ? XSDT_MODE_JUMP : mode;
    matched.insert(c.id);
    ProbeEntry *existing = nullptr;
    if (already_selected(*h, c.id, &existing)) {
      if (check_mode(existing, resolved) != 0)
        return -1;
      continue;
    }
    auto entry = std::make_unique<ProbeEntry>();
    entry->id = c.id;
    entry->provider = c.provider;
    entry->module = c.module;
    entry->function = c.function;
    entry->name = c.name;
    entry->native_types = std::move(c.native_types);
    entry->translated_types = std::move(c.translated_types);
    entry->desc.kind = XSDT_PROBE_SDT;
    entry->desc.mode = resolved;
    entry->desc.argc = c.argc;
    entry->record_argc = c.typed ? c.argc : XSDT_SDT_MAX_ARGS;
    entry->sdt_probe = c.probe;
    entry->enable_pattern =
        glob_literal(c.provider) + ":" + glob_literal(c.module) + ":" +
        glob_literal(c.function) + ":" + glob_literal(c.name);
    fresh.push_back(std::move(entry));
  }

  // USDT: one entry per id; a probe with several sites (inlined, or a
  // macro expanded twice in one function) keeps them all.
  // The function part needs the symbol tables: read them only for the
  // notes the other parts select, each object's file once.
  ProbeDescription any_function = want;
  any_function.part[2].clear();
  std::vector<const UsdtNote *> wanted;
  std::vector<std::string> modules;
  std::vector<std::uintptr_t> pcs;
  for (const UsdtNote &note : notes) {
    std::string module = module_of(note.object);
    if (!any_function.matches(note.provider, module, "", note.name))
      continue;
    wanted.push_back(&note);
    modules.push_back(std::move(module));
    pcs.push_back(note.pc);
  }
  const std::vector<SdtFunction> functions = functions_in_process(pcs);
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const UsdtNote &note = *wanted[i];
    const std::string &module = modules[i];
    const std::string &function = functions[i].name;
    if (!want.matches(note.provider, module, function, note.name))
      continue;
    std::string id =
        note.provider + ":" + module + ":" + function + ":" + note.name;
    if (mode == XSDT_MODE_JUMP && !xsdt_usdt_jumps())
      return fail(h, XSDT_ERR_BAD_MODE,
                  "xsdt_enable_probes: '%s': USDT probe %s has no jump mode "
                  "on this arch (its sites are trapped); use XSDT_MODE_TRAP "
                  "or XSDT_MODE_AUTO",
                  description, id.c_str());
    // AUTO: jump mode where this libxsdt has it for USDT sites (each site
    // that cannot jump, such as sys/sdt.h's, traps).
    const xsdt_mode usdt_mode = mode == XSDT_MODE_TRAP || !xsdt_usdt_jumps()
                                    ? XSDT_MODE_TRAP
                                    : XSDT_MODE_JUMP;
    matched.insert(id);
    ProbeEntry *existing = nullptr;
    if (already_selected(*h, id, &existing)) {
      if (check_mode(existing, usdt_mode) != 0)
        return -1;
      continue; // its sites were resolved when it was first selected
    }
    ProbeEntry *entry = nullptr;
    for (auto &f : fresh)
      if (f->id == id)
        entry = f.get();
    if (!entry) {
      auto created = std::make_unique<ProbeEntry>();
      created->id = id;
      created->provider = note.provider;
      created->module = module;
      created->function = function;
      created->name = note.name;
      created->desc.kind = XSDT_PROBE_USDT;
      created->desc.mode = usdt_mode;
      // The first site's specs stand for the probe's types.
      if (auto specs = split_arg_specs(note.args))
        for (const SpecText &spec : *specs) {
          created->native_types.emplace_back(spec.text);
          created->translated_types.emplace_back();
        }
      created->desc.argc = static_cast<int>(created->native_types.size());
      created->record_argc = created->desc.argc;
      created->enable_pattern =
          glob_literal(note.provider) + ":" + glob_literal(note.name);
      entry = created.get();
      fresh.push_back(std::move(created));
    }
    if (std::find(entry->sites.begin(), entry->sites.end(), note.pc) ==
        entry->sites.end())
      entry->sites.push_back(note.pc);
  }

  if (matched.empty())
    return fail(h, XSDT_ERR_NO_MATCH,
                "xsdt_enable_probes: no probe matches '%s'", description);
  h->probes.reserve(h->probes.size() + fresh.size());
  for (auto &entry : fresh) {
    entry->handle = h;
    entry->publish_desc(static_cast<unsigned>(h->probes.size()));
    h->probes.push_back(std::move(entry));
  }
  return static_cast<int>(matched.size());
}

} // namespace xsdt::rt::consumer
