// Unit tests of the SDT(9) discovery (discover_sdt): probes defined and fired
// in this very binary with <xsdt/sdt.h>, and forged records fed to the
// per-object part (discover_sdt_object) in ordinary buffers. Every expected
// id, type, count and function name is written from the definitions and
// sites below, never taken from the discovery's own output.
#include "internal.h"
#include "isa.h"
#include "machdep.h"
#include "patch.h"

#include <xsdt/sdt.h>

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using xsdt::rt::discover_sdt;
using xsdt::rt::discover_sdt_object;
using xsdt::rt::SdtDiscovery;
using xsdt::rt::SdtFunction;
using xsdt::rt::SdtObjectImage;
using xsdt::rt::SdtProbeDef;
using xsdt::rt::SdtSegment;
using xsdt::rt::SdtSite;
namespace machdep = xsdt::rt::machdep;
namespace isa = xsdt::rt::isa;

// The sites below are never enabled here, but their out-of-line paths call
// xsdt_sdt_fire, so the link needs one. Weak: when libxsdt provides its
// own, the linker takes that one. A weak definition is also never inlined,
// which keeps every site's out-of-line block (and so its target) distinct.
extern "C" __attribute__((weak)) void
xsdt_sdt_fire(struct xsdt_sdt_probe *, std::uint64_t, std::uint64_t,
              std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t,
              std::uint64_t) {}

// ---- The probes of this binary
// ------------------------------------------------

SDT_PROVIDER_DEFINE(sdtdisc);

// Module and function given; two sites in one function.
SDT_PROBE_DEFINE2(sdtdisc, netmod, sendfn, packet__sent, "int", "const char *");
// Empty module and function, one site: the function is the site's.
SDT_PROBE_DEFINE1_XLATE(sdtdisc, , , translated, "struct mbuf *",
                        "pktinfo_t *");
// Empty function, one site in each of two functions: it stays empty.
SDT_PROBE_DEFINE0(sdtdisc, , , two__funcs);
// Empty function, two sites in one function: that function.
SDT_PROBE_DEFINE3(sdtdisc, , , twice__in__one, "int", "long", "unsigned char");
// Untyped, as FreeBSD's SDT_PROBE_DEFINE; fired with arguments anyway.
SDT_PROBE_DEFINE(sdtdisc, kmod, kfunc, untyped);
// Seven translated arguments, the most a definition takes.
SDT_PROBE_DEFINE7_XLATE(sdtdisc, m7, f7, seven, "int", "int32_t", "long",
                        "int64_t", "char *", "string", "void *", "uintptr_t",
                        "unsigned", "uint32_t", "short", "int16_t",
                        "struct proc *", "psinfo_t *");
// `___` reads as `-_`: each `__` from the left becomes one `-`.
SDT_PROBE_DEFINE1(sdtdisc, , , odd___name, "int");
// Defined, never fired: no site, so no function to name.
SDT_PROBE_DEFINE1(sdtdisc, , , unfired, "int");

// noipa keeps gcc from cloning (f.constprop.0) or splitting the functions,
// so each site stays in the function symbol written here; clang has no
// noipa and does not clone at -O2.
#if defined(__clang__)
#define SDTDISC_FUNCTION extern "C" __attribute__((noinline, used))
#else
#define SDTDISC_FUNCTION extern "C" __attribute__((noipa, used))
#endif

volatile int sdtdisc_sink;

SDTDISC_FUNCTION void sdtdisc_send(int fd, const char *what) {
  SDT_PROBE2(sdtdisc, netmod, sendfn, packet__sent, fd, what);
  sdtdisc_sink = fd;
  SDT_PROBE2(sdtdisc, netmod, sendfn, packet__sent, fd + 1, what);
}

SDTDISC_FUNCTION void sdtdisc_translate(void *mbuf) {
  SDT_PROBE1(sdtdisc, , , translated, mbuf);
}

SDTDISC_FUNCTION void sdtdisc_first(void) {
  SDT_PROBE0(sdtdisc, , , two__funcs);
}

SDTDISC_FUNCTION void sdtdisc_second(void) {
  SDT_PROBE0(sdtdisc, , , two__funcs);
}

SDTDISC_FUNCTION void sdtdisc_twice(int a, long b, unsigned char c) {
  SDT_PROBE3(sdtdisc, , , twice__in__one, a, b, c);
  sdtdisc_sink = a;
  SDT_PROBE3(sdtdisc, , , twice__in__one, a + 1, b, c);
}

SDTDISC_FUNCTION void sdtdisc_untyped(int a) {
  SDT_PROBE2(sdtdisc, kmod, kfunc, untyped, a, a + 1);
}

SDTDISC_FUNCTION void sdtdisc_seven(int a, long b, char *c, void *d, unsigned e,
                                    short f, void *g) {
  SDT_PROBE7(sdtdisc, m7, f7, seven, a, b, c, d, e, f, g);
}

SDTDISC_FUNCTION void sdtdisc_odd(int a) {
  SDT_PROBE1(sdtdisc, , , odd___name, a);
}

namespace {

// The main program's file: add_executable(xsdt_sdt_discover_test) in
// sdt/runtime/CMakeLists.txt, the default module of this binary's probes.
constexpr const char *kModule = "xsdt_sdt_discover_test";

// The arch's SDT site NOP (facts sheet §4) as arches/<arch>/arch.json
// writes it ("expect": {"jump_site"}, else {"site_nop"}), independently of
// the descriptor, for
// the messages the tests expect: sdt/runtime/CMakeLists.txt passes it in.
constexpr const char *kNopText = XSDT_TEST_JUMP_SITE_NOP;

std::string hex(std::uintptr_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, value);
  return buf;
}

std::uintptr_t address_of(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

std::string joined(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &line : lines)
    out += line + "\n";
  return out;
}

// Runs every function holding a site once, with the sites disabled.
void call_every_site_function() {
  char text[] = "text";
  sdtdisc_send(3, "ping");
  sdtdisc_translate(text);
  sdtdisc_first();
  sdtdisc_second();
  sdtdisc_twice(1, 2, 3);
  sdtdisc_untyped(4);
  sdtdisc_seven(1, 2, text, text, 5, 6, nullptr);
  sdtdisc_odd(7);
}

struct ExpectedProbe {
  const char *id;
  const char *provider, *module, *function, *name;
  int argc;
  unsigned flags;
  std::vector<std::string> native, translated;
  const xsdt_sdt_probe *probe;
  std::multiset<std::string> site_functions; // one entry per site
};

const std::vector<ExpectedProbe> &expected_probes() {
  static const std::vector<ExpectedProbe> probes = {
      {"sdtdisc:netmod:sendfn:packet-sent",
       "sdtdisc",
       "netmod",
       "sendfn",
       "packet-sent",
       2,
       0,
       {"int", "const char *"},
       {"", ""},
       &xsdt_sdt_probe_sdtdisc_netmod_sendfn_packet__sent,
       {"sdtdisc_send", "sdtdisc_send"}},
      {"sdtdisc:xsdt_sdt_discover_test:sdtdisc_translate:translated",
       "sdtdisc",
       kModule,
       "sdtdisc_translate",
       "translated",
       1,
       1,
       {"struct mbuf *"},
       {"pktinfo_t *"},
       &xsdt_sdt_probe_sdtdisc___translated,
       {"sdtdisc_translate"}},
      {"sdtdisc:xsdt_sdt_discover_test::two-funcs",
       "sdtdisc",
       kModule,
       "",
       "two-funcs",
       0,
       0,
       {},
       {},
       &xsdt_sdt_probe_sdtdisc___two__funcs,
       {"sdtdisc_first", "sdtdisc_second"}},
      {"sdtdisc:xsdt_sdt_discover_test:sdtdisc_twice:twice-in-one",
       "sdtdisc",
       kModule,
       "sdtdisc_twice",
       "twice-in-one",
       3,
       0,
       {"int", "long", "unsigned char"},
       {"", "", ""},
       &xsdt_sdt_probe_sdtdisc___twice__in__one,
       {"sdtdisc_twice", "sdtdisc_twice"}},
      {"sdtdisc:kmod:kfunc:untyped",
       "sdtdisc",
       "kmod",
       "kfunc",
       "untyped",
       0,
       2,
       {},
       {},
       &xsdt_sdt_probe_sdtdisc_kmod_kfunc_untyped,
       {"sdtdisc_untyped"}},
      {"sdtdisc:m7:f7:seven",
       "sdtdisc",
       "m7",
       "f7",
       "seven",
       7,
       1,
       {"int", "long", "char *", "void *", "unsigned", "short",
        "struct proc *"},
       {"int32_t", "int64_t", "string", "uintptr_t", "uint32_t", "int16_t",
        "psinfo_t *"},
       &xsdt_sdt_probe_sdtdisc_m7_f7_seven,
       {"sdtdisc_seven"}},
      {"sdtdisc:xsdt_sdt_discover_test:sdtdisc_odd:odd-_name",
       "sdtdisc",
       kModule,
       "sdtdisc_odd",
       "odd-_name",
       1,
       0,
       {"int"},
       {""},
       &xsdt_sdt_probe_sdtdisc___odd___name,
       {"sdtdisc_odd"}},
      {"sdtdisc:xsdt_sdt_discover_test::unfired",
       "sdtdisc",
       kModule,
       "",
       "unfired",
       1,
       0,
       {"int"},
       {""},
       &xsdt_sdt_probe_sdtdisc___unfired,
       {}},
  };
  return probes;
}

// The discovered probes of provider sdtdisc, by id.
std::map<std::string, std::size_t> own_probes(const SdtDiscovery &d) {
  std::map<std::string, std::size_t> by_id;
  for (std::size_t i = 0; i < d.probes.size(); ++i) {
    if (d.probes[i].provider == "sdtdisc") {
      EXPECT_TRUE(by_id.emplace(d.probes[i].id, i).second)
          << "two definitions with id " << d.probes[i].id;
    }
  }
  return by_id;
}

void expect_own_probes(const SdtDiscovery &d) {
  EXPECT_EQ(joined(d.invalid), "");
  std::map<std::string, std::size_t> by_id = own_probes(d);
  ASSERT_EQ(by_id.size(), expected_probes().size());
  for (const ExpectedProbe &want : expected_probes()) {
    SCOPED_TRACE(want.id);
    auto found = by_id.find(want.id);
    ASSERT_NE(found, by_id.end());
    const SdtProbeDef &got = d.probes[found->second];
    EXPECT_EQ(got.provider, want.provider);
    EXPECT_EQ(got.module, want.module);
    EXPECT_EQ(got.function, want.function);
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.object, ""); // the main program
    EXPECT_EQ(got.argc, want.argc);
    EXPECT_EQ(got.flags, want.flags);
    EXPECT_EQ(got.native_types, want.native);
    EXPECT_EQ(got.translated_types, want.translated);
    EXPECT_EQ(got.probe, address_of(want.probe));
    std::multiset<std::string> functions;
    for (const SdtSite &s : d.sites)
      if (s.def == found->second)
        functions.insert(s.function);
    EXPECT_EQ(functions, want.site_functions);
  }
}

TEST(SdtDiscover, FindsOwnProbesWithResolvedIds) {
  call_every_site_function();
  expect_own_probes(discover_sdt(true));
}

TEST(SdtDiscover, SameResultWithoutCheckingBytes) {
  expect_own_probes(discover_sdt(false));
}

TEST(SdtDiscover, SitesHoldTheNopAndDistinctValidTargets) {
  SdtDiscovery d = discover_sdt(true);
  std::map<std::string, std::size_t> by_id = own_probes(d);
  const std::size_t size = isa::jump_site_size();
  std::set<std::uintptr_t> sites, targets;
  std::size_t own = 0;
  for (const SdtSite &s : d.sites) {
    ASSERT_LT(s.def, d.probes.size());
    if (d.probes[s.def].provider != "sdtdisc")
      continue;
    ++own;
    SCOPED_TRACE(d.probes[s.def].id + " site " + hex(s.site));
    unsigned char nop[xsdt::rt::kMaxSiteBytes];
    ASSERT_TRUE(
        isa::jump_site_nop(isa::first_encoding(), s.site, s.target, nop));
    EXPECT_EQ(std::memcmp(reinterpret_cast<const void *>(s.site), nop, size),
              0);
    EXPECT_EQ(s.site % isa::jump_site_align(), 0u);
    EXPECT_TRUE(s.prot & PROT_EXEC);
    EXPECT_TRUE(s.prot & PROT_READ);
    EXPECT_FALSE(s.target >= s.site && s.target < s.site + size);
    unsigned char jump[16];
    EXPECT_TRUE(
        isa::encode_jump(isa::first_encoding(), s.site, s.target, jump));
    EXPECT_TRUE(sites.insert(s.site).second);
    EXPECT_TRUE(targets.insert(s.target).second) << "shared target";
  }
  // 2 packet__sent, 1 translated, 2 two__funcs, 2 twice__in__one,
  // 1 untyped, 1 seven, 1 odd___name.
  EXPECT_EQ(own, 10u);
}

// The descriptor's NOP is the one arch.json writes down.
TEST(SdtDiscover, TheNopIsTheArchsOwn) {
  const std::size_t size = isa::jump_site_size();
  std::string text;
  char buf[4];
  for (std::size_t i = 0; i < size; ++i) {
    std::snprintf(buf, sizeof buf, i ? " %02x" : "%02x",
                  isa::site_encodings()[0].nop[i]);
    text += buf;
  }
  EXPECT_EQ(text, kNopText);
  EXPECT_EQ(size, std::size_t{XSDT_TEST_JUMP_SITE_SIZE});
}

TEST(SdtDiscover, SitesLieInTheirFunctions) {
  SdtDiscovery d = discover_sdt(true);
  const std::map<std::string, std::uintptr_t> entry = {
      {"sdtdisc_send", address_of(reinterpret_cast<void *>(&sdtdisc_send))},
      {"sdtdisc_translate",
       address_of(reinterpret_cast<void *>(&sdtdisc_translate))},
      {"sdtdisc_first", address_of(reinterpret_cast<void *>(&sdtdisc_first))},
      {"sdtdisc_second", address_of(reinterpret_cast<void *>(&sdtdisc_second))},
      {"sdtdisc_twice", address_of(reinterpret_cast<void *>(&sdtdisc_twice))},
      {"sdtdisc_untyped",
       address_of(reinterpret_cast<void *>(&sdtdisc_untyped))},
      {"sdtdisc_seven", address_of(reinterpret_cast<void *>(&sdtdisc_seven))},
      {"sdtdisc_odd", address_of(reinterpret_cast<void *>(&sdtdisc_odd))},
  };
  for (const SdtSite &s : d.sites) {
    if (d.probes[s.def].provider != "sdtdisc")
      continue;
    auto fn = entry.find(s.function);
    ASSERT_NE(fn, entry.end()) << s.function;
    // These functions are a few instructions long.
    EXPECT_GE(s.site, fn->second) << s.function;
    EXPECT_LT(s.site, fn->second + 512) << s.function;
  }
}

// ---- Forged records
// -------------------------------------------------------------

// Everything the forged records point at, in one static object: static
// storage keeps each self-relative offset within 32 bits, and the order of
// the members puts the records after the code (the out-of-reach case
// relies on it).
struct ForgedMemory {
  alignas(16) unsigned char code[64];
  alignas(16) xsdt_sdt_probe probes[4];
  alignas(4) unsigned char definitions[512];
  alignas(4) unsigned char sites[256];
};
ForgedMemory g_forged;

constexpr const char *kLabel = "/forged/libforged.so";

class Forge {
public:
  Forge() {
    std::memset(&g_forged, 0, sizeof g_forged);
    for (std::size_t at : {std::size_t{0}, std::size_t{16}, std::size_t{32}})
      std::memcpy(g_forged.code + at, isa::site_encodings()[0].nop.data(),
                  isa::jump_site_size());
    image_.object = kLabel;
    image_.label = kLabel;
    image_.module = "libforged.so";
    image_.segments = {
        SdtSegment{address_of(g_forged.code),
                   address_of(g_forged.code) + sizeof g_forged.code,
                   PROT_READ | PROT_EXEC},
        SdtSegment{address_of(g_forged.probes),
                   address_of(g_forged.probes) + sizeof g_forged.probes,
                   PROT_READ | PROT_WRITE},
    };
  }

  static std::uintptr_t code(std::size_t offset) {
    return address_of(g_forged.code + offset);
  }
  static std::uintptr_t probe(std::size_t i) {
    return address_of(&g_forged.probes[i]);
  }

  // Appends a definition record; returns its offset in the section.
  std::size_t definition(std::uintptr_t probe_object,
                         const std::vector<std::string> &strings, unsigned argc,
                         unsigned flags = 0, unsigned version = 1) {
    std::size_t at = definitions_size_;
    unsigned char *r = g_forged.definitions + at;
    std::size_t n = 12;
    for (const std::string &s : strings) {
      std::memcpy(r + n, s.c_str(), s.size() + 1);
      n += s.size() + 1;
    }
    n = (n + 3) & ~std::size_t{3};
    set_u32(r, static_cast<std::uint32_t>(n));
    point(r + 4, probe_object);
    r[8] = static_cast<unsigned char>(version);
    r[9] = static_cast<unsigned char>(argc);
    r[10] = static_cast<unsigned char>(flags);
    definitions_size_ += n;
    return at;
  }

  // A valid definition of probe i: forged:mod:func:name<i>, one int arg.
  std::size_t simple_definition(std::size_t i) {
    return definition(
        probe(i), {"forged", "", "", "name" + std::to_string(i), "int", ""}, 1);
  }

  // Appends a site record; returns its address.
  // A site record; a site in the forged code gets the NOP its target
  // implies (s390x's names the target).
  std::uintptr_t site(std::uintptr_t site, std::uintptr_t target,
                      std::uintptr_t probe_object) {
    unsigned char nop[xsdt::rt::kMaxSiteBytes];
    if (site >= code(0) && site + isa::jump_site_size() <= code(64) &&
        isa::jump_site_nop(isa::first_encoding(), site, target, nop))
      std::memcpy(reinterpret_cast<void *>(site), nop, isa::jump_site_size());
    unsigned char *r = g_forged.sites + sites_size_;
    point(r, site);
    point(r + 4, target);
    point(r + 8, probe_object);
    sites_size_ += 12;
    return address_of(r);
  }

  static std::uintptr_t definition_address(std::size_t offset) {
    return address_of(g_forged.definitions + offset);
  }
  static void set_u32(unsigned char *p, std::uint32_t v) {
    std::memcpy(p, &v, sizeof v);
  }
  // The self-relative encoding of `target` in the field at p.
  static void point(unsigned char *p, std::uintptr_t target) {
    auto offset = static_cast<std::int32_t>(
        static_cast<std::intptr_t>(target - address_of(p)));
    std::memcpy(p, &offset, sizeof offset);
  }

  SdtObjectImage &image() { return image_; }
  std::size_t &definitions_size() { return definitions_size_; }
  std::size_t &sites_size() { return sites_size_; }

  SdtDiscovery run(bool check_bytes = true) {
    image_.probe_sections = {std::span<const unsigned char>(
        g_forged.definitions, definitions_size_)};
    image_.site_sections = {
        std::span<const unsigned char>(g_forged.sites, sites_size_)};
    SdtDiscovery d;
    discover_sdt_object(image_, check_bytes, d);
    return d;
  }

private:
  SdtObjectImage image_;
  std::size_t definitions_size_ = 0, sites_size_ = 0;
};

std::string site_message(std::size_t index, std::uintptr_t record,
                         const std::string &why) {
  return std::string(kLabel) + ": site record #" + std::to_string(index) +
         " at " + hex(record) + ": " + why + "\n";
}

std::string definition_message(std::size_t index, std::uintptr_t record,
                               const std::string &why) {
  return std::string(kLabel) + ": definition record #" + std::to_string(index) +
         " at " + hex(record) + ": " + why + "\n";
}

TEST(SdtDiscoverForged, ValidRecordResolvesIdFromImage) {
  Forge f;
  f.simple_definition(0);
  f.site(Forge::code(16), Forge::code(48), Forge::probe(0));
  f.image().functions_at = [](const std::vector<std::uintptr_t> &addresses) {
    return std::vector<SdtFunction>(addresses.size(),
                                    SdtFunction{"forged_fn", Forge::code(0)});
  };
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid), "");
  ASSERT_EQ(d.probes.size(), 1u);
  EXPECT_EQ(d.probes[0].id, "forged:libforged.so:forged_fn:name0");
  EXPECT_EQ(d.probes[0].object, kLabel);
  EXPECT_EQ(d.probes[0].native_types, std::vector<std::string>{"int"});
  ASSERT_EQ(d.sites.size(), 1u);
  EXPECT_EQ(d.sites[0].site, Forge::code(16));
  EXPECT_EQ(d.sites[0].target, Forge::code(48));
  EXPECT_EQ(d.sites[0].def, 0u);
  EXPECT_EQ(d.sites[0].function, "forged_fn");
  EXPECT_EQ(d.sites[0].prot, PROT_READ | PROT_EXEC);
}

TEST(SdtDiscoverForged, SitesInTwoFunctionsLeaveTheFunctionEmpty) {
  Forge f;
  f.simple_definition(0);
  f.site(Forge::code(0), Forge::code(48), Forge::probe(0));
  f.site(Forge::code(32), Forge::code(56), Forge::probe(0));
  f.image().functions_at = [](const std::vector<std::uintptr_t> &addresses) {
    std::vector<SdtFunction> out;
    for (std::uintptr_t a : addresses)
      out.push_back(a < Forge::code(32) ? SdtFunction{"low", Forge::code(0)}
                                        : SdtFunction{"high", Forge::code(32)});
    return out;
  };
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid), "");
  ASSERT_EQ(d.probes.size(), 1u);
  EXPECT_EQ(d.probes[0].id, "forged:libforged.so::name0");
  ASSERT_EQ(d.sites.size(), 2u);
  EXPECT_EQ(d.sites[0].function, "low");
  EXPECT_EQ(d.sites[1].function, "high");
}

TEST(SdtDiscoverForged, BytesThatAreNotTheNop) {
  Forge f;
  f.simple_definition(0);
  std::uintptr_t record =
      f.site(Forge::code(16), Forge::code(48), Forge::probe(0));
  std::memset(g_forged.code + 16, 0x90, isa::jump_site_size());
  std::string found = "90";
  for (std::size_t i = 1; i < isa::jump_site_size(); ++i)
    found += " 90";
  SdtDiscovery d = f.run(true);
  EXPECT_EQ(joined(d.invalid),
            site_message(0, record,
                         "site " + hex(Forge::code(16)) + " holds " + found +
                             ", not the NOP " + kNopText));
  EXPECT_TRUE(d.sites.empty());
  // The caller that knows its sites are patched skips the byte check.
  SdtDiscovery unchecked = f.run(false);
  EXPECT_EQ(joined(unchecked.invalid), "");
  EXPECT_EQ(unchecked.sites.size(), 1u);
}

TEST(SdtDiscoverForged, ProbeThatNoDefinitionDefines) {
  Forge f;
  f.simple_definition(0);
  std::uintptr_t record =
      f.site(Forge::code(16), Forge::code(48), Forge::probe(3));
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid),
            site_message(0, record,
                         "probe " + hex(Forge::probe(3)) +
                             " is the probe of no valid definition"));
  EXPECT_EQ(d.probes.size(), 1u);
  EXPECT_TRUE(d.sites.empty());
}

TEST(SdtDiscoverForged, AddressesOutsideTheCode) {
  Forge f;
  f.simple_definition(0);
  std::uintptr_t data_site =
      f.site(Forge::probe(1), Forge::code(48), Forge::probe(0));
  std::uintptr_t data_target =
      f.site(Forge::code(16), Forge::probe(1), Forge::probe(0));
  // The last bytes of the site past the end of the segment.
  std::uintptr_t straddling =
      f.site(Forge::code(62), Forge::code(0), Forge::probe(0));
  std::uintptr_t inside =
      f.site(Forge::code(16), Forge::code(17), Forge::probe(0));
  std::uintptr_t itself =
      f.site(Forge::code(16), Forge::code(16), Forge::probe(0));
  SdtDiscovery d = f.run();
  EXPECT_EQ(
      joined(d.invalid),
      site_message(0, data_site,
                   "site " + hex(Forge::probe(1)) +
                       " is not inside an executable segment") +
          site_message(1, data_target,
                       "target " + hex(Forge::probe(1)) +
                           " is not inside an executable segment") +
          site_message(2, straddling,
                       "site " + hex(Forge::code(62)) +
                           " is not inside an executable segment") +
          site_message(3, inside,
                       "target " + hex(Forge::code(17)) +
                           " lies inside the site " + hex(Forge::code(16))) +
          site_message(4, itself,
                       "target " + hex(Forge::code(16)) +
                           " lies inside the site " + hex(Forge::code(16))));
  EXPECT_TRUE(d.sites.empty());
}

TEST(SdtDiscoverForged, TargetOutOfReach) {
  Forge f;
  f.simple_definition(0);
  // The farthest target a self-relative field can name: 2 GiB - 1 past the
  // field, which lies past the site, so past every arch's reach (x86 rel32
  // counts from the end of the 5-byte jump). Only the site is read, so a
  // segment entry is all the far target needs.
  unsigned char *field = g_forged.sites + f.sites_size() + 4;
  std::uintptr_t far = address_of(field) + INT32_MAX;
  f.image().segments.push_back(SdtSegment{far, far + 1, PROT_READ | PROT_EXEC});
  std::uintptr_t record = f.site(Forge::code(16), far, Forge::probe(0));
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid), site_message(0, record,
                                            "target " + hex(far) +
                                                " is out of the jump's reach "
                                                "from " +
                                                hex(Forge::code(16))));
}

TEST(SdtDiscoverForged, MisalignedSite) {
  if (isa::jump_site_align() == 1)
    GTEST_SKIP() << "sites need no alignment on this arch";
  Forge f;
  f.simple_definition(0);
  std::uintptr_t record =
      f.site(Forge::code(2), Forge::code(48), Forge::probe(0));
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid),
            site_message(0, record,
                         "site " + hex(Forge::code(2)) + " is not " +
                             std::to_string(isa::jump_site_align()) +
                             "-byte aligned"));
}

TEST(SdtDiscoverForged, InvalidDefinitionsAreSkipped) {
  Forge f;
  std::size_t version =
      f.definition(Forge::probe(0), {"p", "", "", "v"}, 0, 0, 2);
  std::size_t argc = f.definition(Forge::probe(0), {"p", "", "", "a"}, 8);
  std::size_t flags = f.definition(Forge::probe(0), {"p", "", "", "f"}, 0, 3);
  std::size_t reserved = f.definition(Forge::probe(0), {"p", "", "", "r"}, 0);
  g_forged.definitions[reserved + 11] = 7;
  // argc 2 but only one type pair: the strings end early.
  std::size_t short_types =
      f.definition(Forge::probe(0), {"p", "", "", "s", "int", ""}, 2);
  // argc 0 but a type pair follows: bytes where only padding belongs.
  std::size_t extra =
      f.definition(Forge::probe(0), {"p", "", "", "e", "int", "long"}, 0);
  std::size_t empty_name = f.definition(Forge::probe(0), {"p", "", "", ""}, 0);
  // The probe object in code, which libxsdt must never write.
  std::size_t in_code = f.definition(Forge::code(0), {"p", "", "", "c"}, 0);
  std::size_t good = f.simple_definition(1);
  std::size_t duplicate = f.definition(Forge::probe(1), {"p", "", "", "d"}, 0);
  SdtDiscovery d = f.run();
  auto at = [](std::size_t offset) {
    return Forge::definition_address(offset);
  };
  EXPECT_EQ(
      joined(d.invalid),
      definition_message(0, at(version), "version 2, expected 1") +
          definition_message(1, at(argc), "argc 8 exceeds 7") +
          definition_message(2, at(flags), "unknown flags 0x3") +
          definition_message(3, at(reserved), "reserved byte 0x7, expected 0") +
          definition_message(4, at(short_types),
                             "the types of arg1 are not NUL-terminated within "
                             "the record's 24 bytes (argc 2)") +
          definition_message(5, at(extra),
                             "10 bytes after the last string where at most 3 "
                             "zero bytes of padding belong (argc 0)") +
          definition_message(6, at(empty_name), "empty provider or name") +
          definition_message(7, at(in_code),
                             "probe object " + hex(Forge::code(0)) +
                                 " is not inside writable data of the object") +
          definition_message(9, at(duplicate),
                             "probe object " + hex(Forge::probe(1)) +
                                 " already has a definition (name1)"));
  ASSERT_EQ(d.probes.size(), 1u);
  EXPECT_EQ(d.probes[0].id, "forged:libforged.so::name1");
  EXPECT_EQ(d.probes[0].probe, Forge::probe(1));
  (void)good;
}

TEST(SdtDiscoverForged, UnterminatedStringInsideTheRecord) {
  Forge f;
  std::size_t at = f.definition(Forge::probe(0), {"prov", "", "", "nm"}, 0);
  // Size 20 keeps "prov\0" and "\0" but cuts before the function string's
  // NUL: overwrite the NULs of the last two strings with letters.
  g_forged.definitions[at + 18] = 'x';
  g_forged.definitions[at + 19] = 'y';
  Forge::set_u32(g_forged.definitions + at, 20);
  f.definitions_size() = at + 20;
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid),
            definition_message(0, Forge::definition_address(at),
                               "the function string is not NUL-terminated "
                               "within the record's 20 bytes"));
}

TEST(SdtDiscoverForged, BrokenFramingSkipsTheRestOfTheSection) {
  struct Case {
    std::uint32_t size;
    std::string why;
  };
  const Case cases[] = {
      {8, "size 8 is smaller than the 12-byte header"},
      {22, "size 22 is not a multiple of 4"},
      {4096, "size 4096 runs past the end of the section (64 bytes left)"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.why);
    Forge f;
    std::size_t first = f.simple_definition(0);
    std::size_t broken = f.simple_definition(1);
    f.simple_definition(2); // never reached
    Forge::set_u32(g_forged.definitions + broken, c.size);
    SdtDiscovery d = f.run();
    EXPECT_EQ(joined(d.invalid),
              definition_message(1, Forge::definition_address(broken),
                                 c.why + "; the rest of xsdt_sdt_probes is "
                                         "skipped"));
    ASSERT_EQ(d.probes.size(), 1u);
    EXPECT_EQ(d.probes[0].probe, Forge::probe(0));
    (void)first;
  }
}

TEST(SdtDiscoverForged, ZeroPaddingBetweenRecordsIsSkipped) {
  Forge f;
  f.simple_definition(0);
  f.definitions_size() += 8; // two zero words, as a linker's padding
  f.simple_definition(1);
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid), "");
  ASSERT_EQ(d.probes.size(), 2u);
  EXPECT_EQ(d.probes[1].probe, Forge::probe(1));
}

TEST(SdtDiscoverForged, SiteSectionSizeNotAMultipleOf12) {
  Forge f;
  f.simple_definition(0);
  f.site(Forge::code(16), Forge::code(48), Forge::probe(0));
  f.sites_size() += 5;
  SdtDiscovery d = f.run();
  EXPECT_EQ(joined(d.invalid),
            std::string(kLabel) + ": xsdt_sdt_sites at " +
                hex(address_of(g_forged.sites)) +
                ": size 17 is not a multiple of 12; the last 5 bytes are "
                "ignored\n");
  EXPECT_EQ(d.sites.size(), 1u);
}

// Random bytes in both sections must end in messages, never in a crash or
// a read outside the image: every address is checked before it is used.
TEST(SdtDiscoverForged, GarbageNeverCrashes) {
  std::mt19937 rng(20240607);
  std::size_t accepted_sites = 0;
  for (int round = 0; round < 2000; ++round) {
    Forge f;
    // Mostly-valid records with random damage, and pure noise.
    if (round % 2 == 0) {
      f.simple_definition(0);
      f.simple_definition(1);
      f.site(Forge::code(0), Forge::code(48), Forge::probe(0));
      f.site(Forge::code(16), Forge::code(56), Forge::probe(1));
      for (int k = 0; k < 4; ++k) {
        g_forged.definitions[rng() % f.definitions_size()] =
            static_cast<unsigned char>(rng());
        g_forged.sites[rng() % f.sites_size()] =
            static_cast<unsigned char>(rng());
      }
    } else {
      for (unsigned char &b : g_forged.definitions)
        b = static_cast<unsigned char>(rng());
      for (unsigned char &b : g_forged.sites)
        b = static_cast<unsigned char>(rng());
      f.definitions_size() = rng() % sizeof g_forged.definitions;
      f.sites_size() = rng() % sizeof g_forged.sites;
    }
    SdtDiscovery d = f.run();
    for (const std::string &m : d.invalid)
      EXPECT_EQ(m.rfind(std::string(kLabel) + ": ", 0), 0u) << m;
    for (const SdtSite &s : d.sites) {
      ASSERT_LT(s.def, d.probes.size());
      EXPECT_GE(s.site, Forge::code(0));
      EXPECT_LE(s.site + isa::jump_site_size(), Forge::code(64));
    }
    accepted_sites += d.sites.size();
  }
  // The damage misses some records: the valid ones still come through.
  EXPECT_GT(accepted_sites, 0u);
}

} // namespace
