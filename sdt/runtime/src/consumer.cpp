// libxsdt consumer API (<xsdt/consumer.h>): the libdtrace lifecycle over the
// SDT(9) runtime (<xsdt/sdt-runtime.h>) and the USDT trap runtime
// (<xsdt/runtime.h>).
//
// Selection and patching are separate: xsdt_enable_probes() only resolves a
// description into probe entries (ids, types, USDT site addresses);
// xsdt_go() allocates every record buffer and then patches, all or nothing.
//
// The handlers that record hits are in consumer_hits.cpp.
//
// Memory that a handler may still touch after xsdt_stop() returns is never
// freed:
//   * SDT: xsdt_sdt_disable() guarantees that no handler runs after it
//     returns, so the handle (whose probe entries are the handlers' `user`)
//     can be freed once every probe is disabled. If a disable fails, the
//     handle is leaked on close instead.
//   * USDT: the trap runtime may call a handler after xsdt_disable()
//     returned (a thread that trapped before the table changed). Its `user`
//     is a small UsdtGate that is never freed; the handler touches the
//     handle only after seeing the gate open, and stop waits until no
//     handler is between those two points.
#include "xsdt/consumer.h"

#include "consumer_buffer.h"
#include "consumer_handle.h"
#include "consumer_hits.h"
#include "isa.h"
#include "xsdt/argspec.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <map>
#include <memory>
#include <pthread.h>
#include <sched.h>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unistd.h>
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

// "256k" -> 262144. Digits with an optional k or m suffix, nothing else.
bool parse_size(const char *text, std::uint64_t *out) {
  if (!text || !*text)
    return false;
  std::uint64_t value = 0;
  const char *p = text;
  for (; *p >= '0' && *p <= '9'; ++p) {
    if (value > (UINT64_MAX - 9) / 10)
      return false;
    value = value * 10 + static_cast<std::uint64_t>(*p - '0');
  }
  if (p == text)
    return false;
  std::uint64_t scale = 1;
  if (*p == 'k' || *p == 'K')
    scale = 1 << 10;
  else if (*p == 'm' || *p == 'M')
    scale = 1 << 20;
  if (scale != 1)
    ++p;
  if (*p != '\0' || value > UINT64_MAX / scale)
    return false;
  *out = value * scale;
  return true;
}

int setopt_impl(xsdt_hdl *h, const char *option, const char *value) {
  if (h->state != State::kConfiguring)
    return bad_state(h, "xsdt_setopt");
  const std::string_view name = option ? option : "";
  const char *shown = value ? value : "(null)";
  std::uint64_t number = 0;
  if (name == "bufsize") {
    if (!parse_size(value, &number))
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: bufsize '%s' is not a byte count (digits "
                  "with an optional k or m suffix)",
                  shown);
    if (number < kMinBufsize || number > kMaxBufsize)
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: bufsize '%s' is out of range (%" PRIu64
                  " to %" PRIu64 " bytes)",
                  shown, kMinBufsize, kMaxBufsize);
    h->bufsize = number;
    h->bufsize_text = std::to_string(number);
    return 0;
  }
  if (name == "nthreads") {
    // A count: no suffix.
    if (!parse_size(value, &number) || value[std::strlen(value) - 1] < '0' ||
        value[std::strlen(value) - 1] > '9')
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: nthreads '%s' is not a number", shown);
    if (number < 1 || number > kMaxThreads)
      return fail(h, XSDT_ERR_BAD_OPTION,
                  "xsdt_setopt: nthreads '%s' is out of range (1 to %" PRIu64
                  ")",
                  shown, kMaxThreads);
    h->nthreads = number;
    h->nthreads_text = std::to_string(number);
    return 0;
  }
  return fail(h, XSDT_ERR_BAD_OPTION,
              "xsdt_setopt: unknown option '%s' (known: bufsize, nthreads)",
              option ? option : "(null)");
}

// Disables everything this session enabled and waits for the handlers.
// Returns 0, or -1 with the handle's error set (the first failure; the
// other probes are still disabled).
int disable_session(xsdt_hdl *h, const char *call) {
  h->active.store(false, std::memory_order_seq_cst);
  if (h->gate)
    h->gate->open.store(false, std::memory_order_seq_cst);
  int result = 0;
  xsdt_error err{};
  for (ProbeEntry *probe : h->sdt_enabled) {
    // NOT_ENABLED: gone already (an earlier pattern of ours covered it).
    if (xsdt_sdt_disable(probe->enable_pattern.c_str(), &err) < 0 &&
        err.code != XSDT_ERR_NOT_ENABLED) {
      // Its handler may still run and reads the handle.
      h->keep_forever = true;
      if (result == 0)
        result = fail(h, err.code, "%s: disabling %s: %s", call,
                      probe->id.c_str(), err.message);
    }
  }
  h->sdt_enabled.clear();
  for (std::size_t i = 0; i < h->usdt_enabled; ++i) {
    const std::string &pattern = h->usdt_patterns[i];
    // A trap left in place only ever reaches the closed gate.
    if (xsdt_disable(pattern.c_str(), &err) < 0 &&
        err.code != XSDT_ERR_NOT_ENABLED && result == 0)
      result = fail(h, err.code, "%s: disabling USDT probe %s: %s", call,
                    pattern.c_str(), err.message);
  }
  h->usdt_enabled = 0;
  if (h->gate)
    while (h->gate->inflight.load(std::memory_order_seq_cst) != 0)
      sched_yield();
  return result;
}

int go_impl(xsdt_hdl *h) {
  if (h->state != State::kConfiguring)
    return bad_state(h, "xsdt_go");
  if (h->probes.empty())
    return fail(h, XSDT_ERR_BAD_STATE,
                "xsdt_go: no probe selected (call xsdt_enable_probes first)");
  // Whole 8-byte granules; every buffer is allocated now, none on a hit.
  const std::uint64_t capacity = h->bufsize & ~std::uint64_t{7};
  if (h->nthreads > SIZE_MAX / 4 / capacity)
    return fail(h, XSDT_ERR_BAD_OPTION,
                "xsdt_go: bufsize %" PRIu64 " x nthreads %" PRIu64
                " is more memory than this process can address",
                h->bufsize, h->nthreads);
  const std::size_t nbuffers = static_cast<std::size_t>(h->nthreads);
  const std::size_t words = nbuffers * static_cast<std::size_t>(capacity) / 8;
  // Value-initialised: the pages are touched here rather than on a hit.
  auto storage = std::make_unique<std::uint64_t[]>(words);
  auto buffers = std::make_unique<ThreadBuffer[]>(nbuffers);
  for (std::size_t i = 0; i < nbuffers; ++i)
    buffers[i].attach(reinterpret_cast<unsigned char *>(storage.get()) +
                          i * static_cast<std::size_t>(capacity),
                      static_cast<std::size_t>(capacity));

  std::vector<UsdtSite> usdt_sites;
  std::vector<std::string> usdt_patterns;
  for (const auto &probe : h->probes) {
    probe->hits.store(0, std::memory_order_relaxed);
    if (probe->desc.kind != XSDT_PROBE_USDT)
      continue;
    for (std::uintptr_t pc : probe->sites)
      usdt_sites.push_back(UsdtSite{pc, probe.get()});
    if (std::find(usdt_patterns.begin(), usdt_patterns.end(),
                  probe->enable_pattern) == usdt_patterns.end())
      usdt_patterns.push_back(probe->enable_pattern);
  }
  std::sort(usdt_sites.begin(), usdt_sites.end(),
            [](const UsdtSite &a, const UsdtSite &b) { return a.pc < b.pc; });
  UsdtGate *gate = nullptr;
  if (!usdt_patterns.empty()) {
    gate = new UsdtGate; // never freed: see the file comment
    gate->handle = h;
  }
  h->sdt_enabled.reserve(h->probes.size());
  // Room for the buffers a failed rollback would have to keep.
  h->retired_storage.reserve(h->retired_storage.size() + 1);
  h->retired_buffers.reserve(h->retired_buffers.size() + 1);

  // Nothing below allocates until the session is published.
  h->storage = std::move(storage);
  h->buffers = std::move(buffers);
  h->nbuffers = nbuffers;
  h->usdt_sites = std::move(usdt_sites);
  h->usdt_patterns = std::move(usdt_patterns);
  h->gate = gate;
  h->unbuffered_drops.store(0);
  h->unbuffered_drops_reported = 0;
  h->session = next_session();
  h->active.store(true, std::memory_order_seq_cst);
  if (gate)
    gate->open.store(true, std::memory_order_seq_cst);

  // From here on nothing may throw: a probe enabled and then abandoned by
  // an exception would call into a freed handle.
  xsdt_error err{};
  const char *failed_kind = nullptr, *failed_probe = nullptr;
  for (const auto &probe : h->probes) {
    if (probe->desc.kind != XSDT_PROBE_SDT)
      continue;
    if (xsdt_sdt_enable(probe->enable_pattern.c_str(), probe->desc.mode,
                        xsdt::rt::consumer::on_sdt_hit, probe.get(),
                        &err) < 0) {
      failed_kind = "";
      failed_probe = probe->id.c_str();
      break;
    }
    h->sdt_enabled.push_back(probe.get()); // reserved: no allocation
  }
  if (!failed_probe)
    for (const std::string &pattern : h->usdt_patterns) {
      if (xsdt_enable(pattern.c_str(), xsdt::rt::consumer::on_usdt_hit, gate,
                      &err) < 0) {
        failed_kind = "USDT probe ";
        failed_probe = pattern.c_str();
        break;
      }
      ++h->usdt_enabled;
    }
  if (!failed_probe) {
    h->state = State::kRunning;
    return 0;
  }

  // All or nothing: undo this go, then report the failure that caused it.
  xsdt_error cause = err;
  int rollback = disable_session(h, "xsdt_go");
  if (h->keep_forever) {
    h->retired_storage.push_back(std::move(h->storage));
    h->retired_buffers.push_back(std::move(h->buffers));
  }
  h->storage.reset();
  h->buffers.reset();
  h->nbuffers = 0;
  h->usdt_sites.clear();
  h->gate = nullptr;
  for (const auto &probe : h->probes)
    probe->hits.store(0, std::memory_order_relaxed);
  return fail(h, cause.code, "xsdt_go: enabling %s%s: %s%s", failed_kind,
              failed_probe, cause.message,
              rollback == 0 ? "" : " (and a probe could not be disabled)");
}

xsdt_workstatus work_impl(xsdt_hdl *h, xsdt_consume_f *consume, void *arg) {
  if (h->state == State::kConfiguring) {
    bad_state(h, "xsdt_work");
    return XSDT_WORKSTATUS_ERROR;
  }
  // Read first: once stopped, no producer writes, so drained means done.
  const bool stopped = h->state == State::kStopped;
  bool aborted = false;
  for (std::size_t i = 0; i < h->nbuffers && !aborted; ++i) {
    ThreadBuffer &buffer = h->buffers[i];
    aborted = !buffer.drain([&](std::uint32_t index, std::uint64_t timestamp,
                                const std::uint64_t *args, int argc) {
      if (!consume)
        return true;
      xsdt_record record{};
      record.probe = &h->probes[index]->desc;
      // Read after the records it wrote: a buffer claimed during this call
      // has its owner set by then.
      record.tid = static_cast<std::uint64_t>(
          buffer.owner.load(std::memory_order_acquire));
      record.timestamp_ns = timestamp;
      record.argc = argc;
      std::copy(args, args + argc, record.args);
      return consume(&record, arg) == XSDT_CONSUME_NEXT;
    });
  }
  // Drops are reported whether or not the consumer aborted.
  for (std::size_t i = 0; i < h->nbuffers; ++i) {
    ThreadBuffer &buffer = h->buffers[i];
    const std::uint64_t drops = buffer.drops.load(std::memory_order_acquire);
    if (drops == buffer.drops_reported)
      continue;
    if (h->drop_handler)
      h->drop_handler(static_cast<std::uint64_t>(
                          buffer.owner.load(std::memory_order_relaxed)),
                      drops - buffer.drops_reported, h->drop_arg);
    buffer.drops_reported = drops;
  }
  const std::uint64_t unbuffered =
      h->unbuffered_drops.load(std::memory_order_relaxed);
  if (unbuffered != h->unbuffered_drops_reported) {
    if (h->drop_handler)
      h->drop_handler(0, unbuffered - h->unbuffered_drops_reported,
                      h->drop_arg);
    h->unbuffered_drops_reported = unbuffered;
  }
  if (aborted || !stopped)
    return XSDT_WORKSTATUS_OKAY;
  return XSDT_WORKSTATUS_DONE;
}

int stop_impl(xsdt_hdl *h) {
  if (h->state != State::kRunning)
    return bad_state(h, "xsdt_stop");
  h->state = State::kStopped;
  return disable_session(h, "xsdt_stop");
}

int aggregate_walk_impl(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg) {
  if (h->state == State::kConfiguring)
    return bad_state(h, "xsdt_aggregate_walk");
  if (!visit)
    return fail(h, XSDT_ERR_INTERNAL,
                "xsdt_aggregate_walk: no visit function given");
  for (const auto &probe : h->probes)
    if (visit(&probe->desc, probe->hits.load(std::memory_order_relaxed), arg) !=
        0)
      break;
  return 0;
}

int aggregate_print_impl(xsdt_hdl *h, FILE *out) {
  if (h->state == State::kConfiguring)
    return bad_state(h, "xsdt_aggregate_print");
  if (!out)
    return fail(h, XSDT_ERR_INTERNAL,
                "xsdt_aggregate_print: no output stream given");
  // One snapshot, so the order and the numbers printed agree.
  // Ties keep the enable order through the index. Not std::stable_sort: with
  // libstdc++ 12 it reaches the deprecated get_temporary_buffer, an error
  // under clang 19's -Werror.
  std::vector<std::tuple<std::uint64_t, std::size_t, const ProbeEntry *>> rows;
  for (const auto &probe : h->probes)
    rows.emplace_back(probe->hits.load(std::memory_order_relaxed), rows.size(),
                      probe.get());
  std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    if (std::get<0>(a) != std::get<0>(b))
      return std::get<0>(a) > std::get<0>(b);
    return std::get<1>(a) < std::get<1>(b);
  });
  for (const auto &[count, index, probe] : rows)
    if (std::fprintf(out, "  %s  %" PRIu64 "\n", probe->id.c_str(), count) < 0)
      return fail(h, XSDT_ERR_INTERNAL, "xsdt_aggregate_print: write: %s",
                  std::strerror(errno));
  return 0;
}

std::uint64_t drops_impl(const xsdt_hdl *h) {
  std::uint64_t total = h->unbuffered_drops.load(std::memory_order_relaxed);
  for (std::size_t i = 0; i < h->nbuffers; ++i)
    total += h->buffers[i].drops.load(std::memory_order_relaxed);
  return total;
}

} // namespace
} // namespace xsdt::rt::consumer

// ---- C entry points: no exception crosses into C ----------------------------

extern "C" {

xsdt_hdl *xsdt_open(int version, int *errp) {
  if (version != XSDT_VERSION) {
    if (errp)
      *errp = XSDT_ERR_VERSION;
    return nullptr;
  }
  try {
    static const bool atfork_registered [[maybe_unused]] =
        pthread_atfork(nullptr, nullptr,
                       xsdt::rt::consumer::forget_tid_after_fork) == 0;
    auto *h = new xsdt_hdl;
    h->bufsize_text = std::to_string(h->bufsize);
    h->nthreads_text = std::to_string(h->nthreads);
    if (errp)
      *errp = XSDT_OK;
    return h;
  } catch (...) {
    if (errp)
      *errp = XSDT_ERR_INTERNAL;
    return nullptr;
  }
}

int xsdt_enable_probes(xsdt_hdl *h, const char *description, xsdt_mode mode) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::enable_probes_impl(h, description, mode);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_enable_probes: out of memory");
  }
}

int xsdt_setopt(xsdt_hdl *h, const char *option, const char *value) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::setopt_impl(h, option, value);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_setopt: out of memory");
  }
}

const char *xsdt_getopt(xsdt_hdl *h, const char *option) {
  if (!h || !option)
    return nullptr;
  if (std::strcmp(option, "bufsize") == 0)
    return h->bufsize_text.c_str();
  if (std::strcmp(option, "nthreads") == 0)
    return h->nthreads_text.c_str();
  return nullptr;
}

int xsdt_handle_drop(xsdt_hdl *h, xsdt_drop_f *handler, void *arg) {
  if (!h)
    return -1;
  h->drop_handler = handler;
  h->drop_arg = arg;
  return 0;
}

int xsdt_go(xsdt_hdl *h) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::go_impl(h);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_go: out of memory");
  }
}

xsdt_workstatus xsdt_work(xsdt_hdl *h, xsdt_consume_f *consume, void *arg) {
  if (!h)
    return XSDT_WORKSTATUS_ERROR;
  try {
    return xsdt::rt::consumer::work_impl(h, consume, arg);
  } catch (...) {
    xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL, "xsdt_work: out of memory");
    return XSDT_WORKSTATUS_ERROR;
  }
}

int xsdt_stop(xsdt_hdl *h) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::stop_impl(h);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_stop: out of memory");
  }
}

int xsdt_aggregate_walk(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::aggregate_walk_impl(h, visit, arg);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_aggregate_walk: out of memory");
  }
}

int xsdt_aggregate_print(xsdt_hdl *h, FILE *out) {
  if (!h)
    return -1;
  try {
    return xsdt::rt::consumer::aggregate_print_impl(h, out);
  } catch (...) {
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_aggregate_print: out of memory");
  }
}

uint64_t xsdt_drops(xsdt_hdl *h) {
  return h ? xsdt::rt::consumer::drops_impl(h) : 0;
}

int xsdt_errno(xsdt_hdl *h) { return h ? h->last_error : XSDT_ERR_BAD_STATE; }

const char *xsdt_errmsg(xsdt_hdl *h, int code) {
  if (h && code == h->last_error && code != XSDT_OK && !h->last_message.empty())
    return h->last_message.c_str();
  return xsdt::rt::consumer::generic_message(code);
}

void xsdt_close(xsdt_hdl *h) {
  if (!h)
    return;
  try {
    if (h->state == xsdt::rt::consumer::State::kRunning)
      xsdt::rt::consumer::stop_impl(h);
  } catch (...) {
    h->keep_forever = true; // could not prove the handlers are gone
  }
  if (!h->keep_forever)
    delete h;
}

} // extern "C"
