// The SDT(9) records of <xsdt/sdt.h> (layout documented there), decoded
// from their bytes. libxsdt (sdt_discover.cpp, from a loaded object's
// memory) and xsdt-inspect (sdt/inspect/sdt_records.cpp, from the file)
// both decode them here, so that the inspector accepts, names and rejects
// exactly what the runtime does. What stays with each side: where the bytes
// come from, the address of each byte, which addresses a probe object or a
// site may have, and how a bad record is reported (the runtime skips it
// with a message, the inspector may refuse the whole file).
//
// Header-only and free of libxsdt's types, since the inspector does not
// link libxsdt.
//
// Byte order: the records are in the target's (ByteOrder), which each side
// passes: libxsdt its own, the inspector the file's.
#ifndef XSDT_SDT_RECORD_FORMAT_H
#define XSDT_SDT_RECORD_FORMAT_H

#include "xsdt/byte_order.h"
#include "xsdt/hex_text.h"

#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xsdt::sdt_format {

inline constexpr std::string_view kProbesSection = "xsdt_sdt_probes";
inline constexpr std::string_view kSitesSection = "xsdt_sdt_sites";
inline constexpr std::size_t kDefinitionHeaderSize = 12; // size, probe, 4 bytes
inline constexpr std::size_t kSiteRecordSize = 12;       // site, target, probe
inline constexpr unsigned kDefinitionVersion = 1;
inline constexpr unsigned kMaxArgs = 7;
inline constexpr unsigned kFlagTranslated = 1, kFlagUntyped = 2;

using Bytes = std::span<const unsigned char>;

inline std::uint32_t load_u32(Bytes bytes, std::size_t at, ByteOrder order) {
  return static_cast<std::uint32_t>(load_uint(bytes, at, 4, order));
}

// The address a self-relative field designates: its value plus its own
// address, wrapped like the assembler's `sym - .` to the address size that
// address_mask keeps (0xffffffff for 32-bit code).
inline std::uint64_t self_relative(Bytes bytes, std::size_t at,
                                   std::uint64_t field_address,
                                   std::uint64_t address_mask,
                                   ByteOrder order) {
  const auto offset = static_cast<std::int32_t>(load_u32(bytes, at, order));
  return (field_address +
          static_cast<std::uint64_t>(static_cast<std::int64_t>(offset))) &
         address_mask;
}

// The three self-relative fields of the site record at `at`, whose first
// byte has the address record_address.
struct SiteFields {
  std::uint64_t site = 0, target = 0, probe = 0;
};

inline SiteFields decode_site(Bytes bytes, std::size_t at,
                              std::uint64_t record_address,
                              std::uint64_t address_mask, ByteOrder order) {
  return {
      self_relative(bytes, at, record_address, address_mask, order),
      self_relative(bytes, at + 4, record_address + 4, address_mask, order),
      self_relative(bytes, at + 8, record_address + 8, address_mask, order)};
}

// Where the walk of a definition section stopped.
struct FramingError {
  std::size_t offset = 0; // of the record (or stray bytes) in the section
  std::string what;       // "size 8 is smaller than the 12-byte header"
  // The record's size field cannot be trusted, so the rest of the section
  // was not walked; false for non-zero bytes too few to hold a size.
  bool bad_size = false;
};

// Calls on_record(offset, size) for each definition record of section,
// skipping the zero words that pad between input sections. Stops at the
// first record whose size does not frame it: without a trustworthy size
// the next record cannot be found. section_noun names the section in the
// message about stray bytes at its end.
template <class OnRecord>
std::optional<FramingError>
walk_definitions(Bytes section, std::string_view section_noun, ByteOrder order,
                 OnRecord &&on_record) {
  std::size_t off = 0;
  while (off < section.size()) {
    const std::size_t left = section.size() - off;
    if (left < 4) {
      if (std::any_of(section.begin() + static_cast<std::ptrdiff_t>(off),
                      section.end(), [](unsigned char c) { return c != 0; }))
        return FramingError{off,
                            std::to_string(left) +
                                " stray bytes at the end of " +
                                std::string(section_noun),
                            false};
      return std::nullopt;
    }
    const std::uint32_t size = load_u32(section, off, order);
    if (size == 0) {
      off += 4;
      continue;
    }
    if (size < kDefinitionHeaderSize || size % 4 != 0 || size > left)
      return FramingError{off,
                          "size " + std::to_string(size) +
                              (size < kDefinitionHeaderSize
                                   ? " is smaller than the 12-byte header"
                               : size % 4 != 0
                                   ? " is not a multiple of 4"
                                   : " runs past the end of the section (" +
                                         std::to_string(left) + " bytes left)"),
                          true};
    on_record(off, static_cast<std::size_t>(size));
    off += size;
  }
  return std::nullopt;
}

// The NUL-terminated string at `at`, advancing `at` past the NUL; false
// when no NUL comes before `end`.
inline bool take_string(Bytes bytes, std::size_t &at, std::size_t end,
                        std::string &out) {
  if (at >= end)
    return false;
  const void *nul = std::memchr(bytes.data() + at, 0, end - at);
  if (!nul)
    return false;
  const auto stop = static_cast<std::size_t>(
      static_cast<const unsigned char *>(nul) - bytes.data());
  out.assign(reinterpret_cast<const char *>(bytes.data() + at), stop - at);
  at = stop + 1;
  return true;
}

// Decodes the fields of the definition record [at, at + size) of bytes,
// whose framing walk_definitions has checked, into def (either side's
// definition type: argc, flags, provider, module, function, name,
// native_types, translated_types); returns why it is invalid, or "". Its
// probe field is the caller's to resolve (self_relative at at + 4).
template <class Definition>
std::string decode_definition(Bytes bytes, std::size_t at, std::size_t size,
                              Definition &def) {
  const unsigned version = bytes[at + 8], argc = bytes[at + 9],
                 flags = bytes[at + 10], reserved = bytes[at + 11];
  if (version != kDefinitionVersion)
    return "version " + std::to_string(version) + ", expected " +
           std::to_string(kDefinitionVersion);
  if (argc > kMaxArgs)
    return "argc " + std::to_string(argc) + " exceeds " +
           std::to_string(kMaxArgs);
  if ((flags & ~(kFlagTranslated | kFlagUntyped)) != 0 ||
      flags == (kFlagTranslated | kFlagUntyped))
    return "unknown flags " + hex_number(flags);
  if (reserved != 0)
    return "reserved byte " + hex_number(reserved) + ", expected 0";
  def.argc = static_cast<decltype(def.argc)>(argc);
  def.flags = flags;

  std::size_t p = at + kDefinitionHeaderSize;
  const std::size_t end = at + size;
  const char *const kWhat[] = {"provider", "module", "function", "name"};
  std::string *const fields[] = {&def.provider, &def.module, &def.function,
                                 &def.name};
  for (std::size_t i = 0; i < 4; ++i)
    if (!take_string(bytes, p, end, *fields[i]))
      return std::string("the ") + kWhat[i] +
             " string is not NUL-terminated within the record's " +
             std::to_string(size) + " bytes";
  if (def.provider.empty() || def.name.empty())
    return "empty provider or name";
  def.native_types.resize(argc);
  def.translated_types.resize(argc);
  for (unsigned i = 0; i < argc; ++i)
    if (!take_string(bytes, p, end, def.native_types[i]) ||
        !take_string(bytes, p, end, def.translated_types[i]))
      return "the types of arg" + std::to_string(i) +
             " are not NUL-terminated within the record's " +
             std::to_string(size) + " bytes (argc " + std::to_string(argc) +
             ")";
  // What follows the last string is the padding to 4 bytes: more, or
  // non-zero bytes, mean argc and the strings disagree.
  const std::size_t rest = end - p;
  if (rest >= 4 || std::any_of(bytes.begin() + static_cast<std::ptrdiff_t>(p),
                               bytes.begin() + static_cast<std::ptrdiff_t>(end),
                               [](unsigned char c) { return c != 0; }))
    return std::to_string(rest) +
           " bytes after the last string where at most 3 zero bytes of "
           "padding belong (argc " +
           std::to_string(argc) + ")";
  return {};
}

// FreeBSD's rule: each `__` of a probe name reads as `-`, left to right.
inline std::string dashed_name(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '_' && i + 1 < raw.size() && raw[i + 1] == '_') {
      out += '-';
      ++i;
    } else {
      out += raw[i];
    }
  }
  return out;
}

// The function holding every valid site of a probe, fed one site at a
// time: its name, or "" when the sites are in several functions, one is
// in none, or there are none.
class CommonFunction {
public:
  void add(const std::string &name, std::uint64_t start) {
    if (ambiguous_)
      return;
    if (name.empty() || (found_ && (name != name_ || start != start_))) {
      ambiguous_ = true;
    } else if (!found_) {
      found_ = true;
      name_ = name;
      start_ = start;
    }
  }
  std::string name() const {
    return found_ && !ambiguous_ ? name_ : std::string();
  }

private:
  bool found_ = false, ambiguous_ = false;
  std::string name_;
  std::uint64_t start_ = 0;
};

// Resolves a decoded definition's id the way <xsdt/sdt.h> documents: an
// empty module is default_module (the object's file name), an empty
// function is common_function() (called only then), each `__` of the name
// reads as `-`; then id is "provider:module:function:name".
template <class Definition, class CommonFunctionOf>
void resolve_id(Definition &def, const std::string &default_module,
                CommonFunctionOf &&common_function) {
  if (def.module.empty())
    def.module = default_module;
  if (def.function.empty())
    def.function = common_function();
  def.name = dashed_name(def.name);
  def.id =
      def.provider + ":" + def.module + ":" + def.function + ":" + def.name;
}

// ---- The function symbol holding a site --------------------------------
//
// Names the functions of the sites and so the default function of a
// probe. Each side reads the symbol tables its own way; the rule that picks
// the symbol is here. Address is the side's address type: its width is
// where `start + size` wraps.

// The best function symbol found so far for one address; StringTable
// designates the symbol table's string table, for the side to read `name`.
template <class Address, class StringTable> struct SymbolMatch {
  bool found = false;
  Address start = 0;
  int rank = 0; // binding: global 2, weak 1, local 0
  StringTable strings{};
  std::uint32_t name = 0;
};

// st_info packs binding and type the same way in ELF32 and ELF64.
inline int binding_rank(unsigned char info) {
  switch (ELF64_ST_BIND(info)) {
  case STB_GLOBAL:
    return 2;
  case STB_WEAK:
    return 1;
  default:
    return 0;
  }
}

// Offers one symbol, in table order, to the wanted addresses (sorted) it
// holds. A function symbol beats the match so far when it is innermost
// (starts later), then when its binding is stronger; on a tie the earlier
// one stays, so that aliases resolve the same way every time.
template <class Address, class StringTable>
void offer_symbol(const std::vector<Address> &sorted,
                  std::vector<SymbolMatch<Address, StringTable>> &matches,
                  unsigned char info, std::uint16_t section_index,
                  Address start, Address size, StringTable strings,
                  std::uint32_t name) {
  const unsigned type = ELF64_ST_TYPE(info);
  if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
      section_index == SHN_UNDEF || section_index == SHN_ABS || size == 0)
    return;
  const Address end = start + size;
  if (end < start)
    return;
  const int rank = binding_rank(info);
  for (auto it = std::lower_bound(sorted.begin(), sorted.end(), start);
       it != sorted.end() && *it < end; ++it) {
    auto &m = matches[static_cast<std::size_t>(it - sorted.begin())];
    if (m.found && (m.start > start || (m.start == start && m.rank >= rank)))
      continue;
    m = SymbolMatch<Address, StringTable>{true, start, rank, strings, name};
  }
}

// The function symbol holding each address: its name ("" when none) and
// start, from the SHT_SYMTAB tables, and from SHT_DYNSYM for the addresses
// those do not cover (a stripped file keeps only .dynsym).
// offer_tables(type, sorted, matches) offers every symbol of every table
// of that type (offer_symbol); name_of(match) reads a found match's name.
template <class StringTable, class Address, class OfferTables, class NameOf>
std::vector<std::pair<std::string, Address>>
functions_holding(const std::vector<Address> &addresses,
                  OfferTables &&offer_tables, NameOf &&name_of) {
  using Match = SymbolMatch<Address, StringTable>;
  std::vector<Address> sorted = addresses;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<Match> matches(sorted.size());
  offer_tables(SHT_SYMTAB, sorted, matches);
  std::vector<Address> missing;
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (!matches[i].found)
      missing.push_back(sorted[i]);
  if (!missing.empty()) {
    std::vector<Match> dynamic(missing.size());
    offer_tables(SHT_DYNSYM, missing, dynamic);
    for (std::size_t i = 0, j = 0; i < sorted.size(); ++i)
      if (!matches[i].found)
        matches[i] = dynamic[j++];
  }

  // Each name read once, however many sites its function holds.
  std::vector<std::string> names(sorted.size());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (matches[i].found)
      names[i] = name_of(matches[i]);
  std::vector<std::pair<std::string, Address>> out;
  out.reserve(addresses.size());
  for (Address address : addresses) {
    const auto i = static_cast<std::size_t>(
        std::lower_bound(sorted.begin(), sorted.end(), address) -
        sorted.begin());
    out.emplace_back(names[i], matches[i].start);
  }
  return out;
}

} // namespace xsdt::sdt_format

#endif // XSDT_SDT_RECORD_FORMAT_H
