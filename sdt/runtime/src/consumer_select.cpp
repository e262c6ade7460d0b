// The consumer's probe selection (xsdt_enable_probes): the catalogues of
// the SDT and USDT probes of the process, a description matched against
// them, and the probe entries the handle keeps for xsdt_go(). Separate
// from the session because selection only reads the runtimes' lists and
// patches nothing; it is also the only part of the consumer that reads ELF
// files (to name the function holding a USDT site).
#include "consumer_handle.h"
#include "isa.h"
#include "xsdt/argspec.h"
#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

namespace xsdt::rt::consumer {
namespace {

// ---- Descriptions -----------------------------------------------------------

// provider, module, function, name; an empty part matches anything.
struct Description {
  std::string part[4];
};

bool parse_description(std::string_view text, Description *out) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos)
      break;
    start = colon + 1;
  }
  if (parts.size() > 4)
    return false;
  // Fewer parts name the last ones: "name", "function:name", ...
  std::size_t first = 4 - parts.size();
  for (std::size_t i = 0; i < parts.size(); ++i)
    out->part[first + i] = std::string(parts[i]);
  return true;
}

bool part_matches(const std::string &glob, const std::string &value) {
  return glob.empty() || fnmatch(glob.c_str(), value.c_str(), 0) == 0;
}

// A glob that matches exactly `text`.
std::string glob_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string basename_of(const std::string &path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string main_program_name() {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0)
    return "";
  path[n] = '\0';
  return basename_of(path);
}

// ---- USDT functions: the symbol holding a site ------------------------------
//
// dladdr() sees only the dynamic symbol table (exported symbols), so a
// probe in a static or hidden function of the main program would have no
// function. Instead the object's file is read once per xsdt_enable_probes
// call that needs it: .symtab if present, else .dynsym (a stripped
// library), function symbols only. Unreadable files give "".

class FunctionIndex {
public:
  std::string function_at(std::uintptr_t pc) {
    if (!objects_loaded_) {
      dl_iterate_phdr(collect_object, &objects_);
      objects_loaded_ = true;
    }
    for (LoadedObject &obj : objects_) {
      if (!obj.contains(pc))
        continue;
      if (!obj.symbols_loaded) {
        obj.symbols_loaded = true;
        load_symbols(obj);
      }
      return obj.lookup(pc - obj.bias);
    }
    return "";
  }

private:
  struct FunctionSymbol {
    std::uint64_t start, end;
    std::string name;
    bool global;
  };
  struct LoadedObject {
    std::string name; // dlpi_name; "" for the main program
    std::uintptr_t bias = 0;
    std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments;
    bool symbols_loaded = false;
    std::vector<FunctionSymbol> functions;

    bool contains(std::uintptr_t pc) const {
      for (const auto &[start, end] : segments)
        if (pc >= start && pc < end)
          return true;
      return false;
    }
    // Global symbols win over local aliases of the same code.
    std::string lookup(std::uint64_t address) const {
      const FunctionSymbol *best = nullptr;
      for (const FunctionSymbol &f : functions)
        if (address >= f.start && address < f.end &&
            (!best || (f.global && !best->global)))
          best = &f;
      return best ? best->name : "";
    }
  };

  static int collect_object(dl_phdr_info *info, std::size_t, void *data) {
    auto *objects = static_cast<std::vector<LoadedObject> *>(data);
    LoadedObject obj;
    obj.name = info->dlpi_name ? info->dlpi_name : "";
    obj.bias = info->dlpi_addr;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr) &ph = info->dlpi_phdr[i];
      if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
        obj.segments.emplace_back(info->dlpi_addr + ph.p_vaddr,
                                  info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
    }
    objects->push_back(std::move(obj));
    return 0;
  }

  static bool read_at(int fd, std::uint64_t offset, void *dst, std::size_t n) {
    auto *p = static_cast<char *>(dst);
    while (n > 0) {
      ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
      if (got <= 0)
        return false;
      p += got;
      n -= static_cast<std::size_t>(got);
      offset += static_cast<std::uint64_t>(got);
    }
    return true;
  }

  // Bounds a corrupt file's demands.
  static constexpr std::uint64_t kMaxTableBytes = 256 << 20;

  static void load_symbols(LoadedObject &obj) {
    const char *path = obj.name.empty() ? "/proc/self/exe" : obj.name.c_str();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return;
    struct Closer {
      int fd;
      ~Closer() { close(fd); }
    } closer{fd};
    ElfW(Ehdr) eh;
    if (!read_at(fd, 0, &eh, sizeof eh) ||
        std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] !=
            (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
        eh.e_shoff == 0 || eh.e_shnum == 0 ||
        eh.e_shentsize != sizeof(ElfW(Shdr)))
      return;
    std::vector<ElfW(Shdr)> shdrs(eh.e_shnum);
    if (!read_at(fd, eh.e_shoff, shdrs.data(), shdrs.size() * sizeof shdrs[0]))
      return;
    const ElfW(Shdr) *table = nullptr;
    for (const ElfW(Shdr) & sh : shdrs)
      if (sh.sh_type == SHT_SYMTAB)
        table = &sh;
    if (!table)
      for (const ElfW(Shdr) & sh : shdrs)
        if (sh.sh_type == SHT_DYNSYM)
          table = &sh;
    if (!table || table->sh_link >= shdrs.size() ||
        table->sh_entsize != sizeof(ElfW(Sym)) ||
        table->sh_size > kMaxTableBytes)
      return;
    const ElfW(Shdr) &strings = shdrs[table->sh_link];
    if (strings.sh_size > kMaxTableBytes)
      return;
    std::vector<ElfW(Sym)> symbols(table->sh_size / sizeof(ElfW(Sym)));
    std::vector<char> names(strings.sh_size + 1, '\0');
    if (!read_at(fd, table->sh_offset, symbols.data(),
                 symbols.size() * sizeof(ElfW(Sym))) ||
        !read_at(fd, strings.sh_offset, names.data(), strings.sh_size))
      return;
    for (const ElfW(Sym) & sym : symbols) {
      // st_info packs binding and type the same way in both ELF classes.
      const unsigned type = ELF32_ST_TYPE(sym.st_info);
      const unsigned binding = ELF32_ST_BIND(sym.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_size == 0 ||
          sym.st_shndx == SHN_UNDEF || sym.st_name >= strings.sh_size)
        continue;
      const auto start = static_cast<decltype(sym.st_value)>(
          isa::descriptor().function_start(sym.st_value));
      obj.functions.push_back(
          FunctionSymbol{start, start + sym.st_size, names.data() + sym.st_name,
                         binding == STB_GLOBAL || binding == STB_WEAK});
    }
  }

  bool objects_loaded_ = false;
  std::vector<LoadedObject> objects_;
};

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
  if (!description || !*description)
    return fail(h, XSDT_ERR_BAD_PATTERN,
                "xsdt_enable_probes: empty description (use '*' or ':::' "
                "for every probe)");
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
  Description want;
  if (!parse_description(description, &want))
    return fail(h, XSDT_ERR_BAD_PATTERN,
                "xsdt_enable_probes: '%s' has more than four "
                "colon-separated parts (provider:module:function:name)",
                description);

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
    if (!part_matches(want.part[0], c.provider) ||
        !part_matches(want.part[1], c.module) ||
        !part_matches(want.part[2], c.function) ||
        !part_matches(want.part[3], c.name))
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
  const std::string program = main_program_name();
  FunctionIndex functions;
  for (const UsdtNote &note : notes) {
    std::string module =
        note.object.empty() ? program : basename_of(note.object);
    if (!part_matches(want.part[0], note.provider) ||
        !part_matches(want.part[1], module) ||
        !part_matches(want.part[3], note.name))
      continue;
    std::string function = functions.function_at(note.pc);
    if (!part_matches(want.part[2], function))
      continue;
    std::string id =
        note.provider + ":" + module + ":" + function + ":" + note.name;
    if (mode == XSDT_MODE_JUMP)
      return fail(h, XSDT_ERR_BAD_MODE,
                  "xsdt_enable_probes: '%s': USDT probe %s has no jump mode "
                  "(stapsdt sites are trapped); use XSDT_MODE_TRAP or "
                  "XSDT_MODE_AUTO",
                  description, id.c_str());
    matched.insert(id);
    ProbeEntry *existing = nullptr;
    if (already_selected(*h, id, &existing)) {
      if (check_mode(existing, XSDT_MODE_TRAP) != 0)
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
      created->desc.mode = XSDT_MODE_TRAP;
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
