// What every arch's descriptor (xsdt/arch_port.h) must satisfy, checked for
// each arch of the registry: the checks a new port gets for free. Each
// failure names the arch and the descriptor field.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace xsdt {
namespace {

// The most bytes the runtime patches at one site (kMaxSiteBytes in
// sdt/runtime/src/patch.h, which is private to libxsdt).
constexpr std::size_t kMaxSiteBytes = 16;

class Descriptor : public ::testing::TestWithParam<Arch> {
protected:
  const ArchDescriptor &d() const { return GetParam().descriptor(); }
  // "<arch>: <field>", the head of every failure message.
  std::string where(const std::string &field) const {
    return std::string(arch_name(GetParam())) + ": " + field;
  }
  // The encodings whose sites take jumps: site_encodings[0] and those with
  // a jump of their own (a second instruction set).
  std::vector<const SiteEncoding *> jump_encodings() const {
    std::vector<const SiteEncoding *> found;
    for (const SiteEncoding &e : d().site_encodings)
      if (d().takes_jumps(e))
        found.push_back(&e);
    return found;
  }
  void JumpsRoundTripIn(const SiteEncoding &e) const;
};

INSTANTIATE_TEST_SUITE_P(Registry, Descriptor,
                         ::testing::ValuesIn(all_arches()),
                         tests::arch_param_name);

std::string hex(std::span<const unsigned char> bytes) {
  std::string s;
  char buf[4];
  for (unsigned char b : bytes) {
    std::snprintf(buf, sizeof buf, s.empty() ? "%02x" : " %02x", b);
    s += buf;
  }
  return s;
}

std::string hex(std::uint64_t address) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx",
                static_cast<unsigned long long>(address));
  return buf;
}

bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

// ---- Name and ELF ---------------------------------------------------------

TEST_P(Descriptor, Name) {
  ASSERT_NE(d().name, nullptr) << "name is null";
  const std::string name = d().name;
  EXPECT_FALSE(name.empty()) << "name is empty";
  // The registry pastes it into xsdt_arch_<name>: a C identifier's tail.
  for (char c : name)
    EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
        << where("name") << " has '" << c
        << "': arch names are [a-z0-9_] (a directory and a C identifier)";
  EXPECT_EQ(parse_arch(name), GetParam())
      << where("name") << " does not find this descriptor in the registry";
  EXPECT_EQ(arch_name(GetParam()), name) << where("name");
}

TEST_P(Descriptor, ElfMachineAndClass) {
  EXPECT_NE(d().elf_machine, 0) << where("elf_machine") << " is EM_NONE";
  if (elf_machine_is_shared(GetParam()))
    EXPECT_TRUE(d().elf_claims)
        << where("elf_claims")
        << ": another arch has the same machine and class, and this one "
           "does not say which files are its";
  else
    EXPECT_EQ(arch_for_elf(d().elf_machine, d().elf64), GetParam())
        << where("elf_machine/elf64");
}

// Every arch so far has registers as wide as its ELF class. An ILP32 ABI
// on a 64-bit ISA (x86-64's x32, aarch64's ilp32) would be ELFCLASS32 with
// 64-bit registers and break this rule, and word_bits would need to split
// into address and register widths.
TEST_P(Descriptor, WordBits) {
  EXPECT_TRUE(d().word_bits == 32 || d().word_bits == 64)
      << where("word_bits") << " is " << d().word_bits;
  EXPECT_EQ(d().word_bits, d().elf64 ? 64 : 32)
      << where("word_bits") << " does not match elf64 = " << d().elf64;
}

// ---- Sites ------------------------------------------------------------------

TEST_P(Descriptor, SiteEncodings) {
  ASSERT_FALSE(d().site_encodings.empty())
      << where("site_encodings") << " is empty";
  const auto &patch = d().site_encodings[0].nop;
  for (std::size_t i = 0; i < d().site_encodings.size(); ++i) {
    const SiteEncoding &e = d().site_encodings[i];
    const std::string field =
        where("site_encodings[" + std::to_string(i) + "]");
    EXPECT_TRUE(e.what && *e.what) << field << ".what is empty";
    EXPECT_FALSE(e.nop.empty()) << field << ".nop is empty";
    EXPECT_LE(e.nop.size(), kMaxSiteBytes)
        << field << ".nop: the runtime patches at most " << kMaxSiteBytes
        << " bytes";
    EXPECT_FALSE(e.trap.empty()) << field << ".trap is empty";
    EXPECT_LE(e.trap.size(), e.nop.size())
        << field << ".trap (" << hex(e.trap) << ") is longer than its nop ("
        << hex(e.nop) << ")";
    EXPECT_FALSE(e.trap.size() <= e.nop.size() &&
                 std::equal(e.trap.begin(), e.trap.end(), e.nop.begin()))
        << field << ".trap is the head of its nop: a trapped site would "
        << "look disabled";
    // The site's pc from the trap's: site_from_trap_pc() subtracts
    // trap_pc_offset whatever the encoding.
    EXPECT_LE(d().trap_pc_offset, e.trap.size())
        << where("trap_pc_offset") << " lies past " << field << ".trap";
    if (i == 0)
      continue;
    // A second instruction set's NOP (armhf's ARM state) has the patch
    // width: the runtime patches every jump site with that many bytes.
    if (e.jump) {
      EXPECT_EQ(e.nop.size(), patch.size())
          << field << " takes jumps, but its nop is not as wide as "
          << "site_encodings[0].nop";
      EXPECT_NE(e.jump->encode, nullptr) << field << ".jump->encode is null";
      EXPECT_NE(e.jump->decode, nullptr) << field << ".jump->decode is null";
    }
    // xsdt's USDT site, when it is not the jump site's NOP: a trap fits
    // (the loop's checks above); it may be wider.
    if (&e == d().usdt_site)
      continue;
    // The others are what other implementations leave: no wider than
    // xsdt's patch NOP, and not it.
    EXPECT_LE(e.nop.size(), patch.size())
        << field << ".nop is wider than site_encodings[0].nop, xsdt's "
        << "patch-width NOP";
    EXPECT_FALSE(
        std::equal(e.nop.begin(), e.nop.end(), patch.begin(), patch.end()))
        << field << ".nop repeats site_encodings[0].nop";
  }
}

// usdt_site, when set, is one of site_encodings, not the first (which
// would need no pointer), and takes no jump of its own.
TEST_P(Descriptor, UsdtSite) {
  const SiteEncoding *usdt = d().usdt_site;
  if (!usdt)
    return;
  const auto &all = d().site_encodings;
  EXPECT_TRUE(usdt > &all[0] && usdt < all.data() + all.size())
      << where("usdt_site") << " is not one of site_encodings[1..]";
  EXPECT_EQ(usdt->jump, nullptr)
      << where("usdt_site") << " takes jumps: jump sites use site_encodings[0]";
  EXPECT_EQ(usdt->hazard, nullptr)
      << where("usdt_site") << " is xsdt's USDT site but names a hazard";
  EXPECT_EQ(d().usdt_site_encoding().nop.size(), usdt->nop.size());
}

TEST_P(Descriptor, SiteAlignment) {
  const std::size_t align = d().site_align;
  const SiteEncoding &patch = d().site_encodings[0];
  EXPECT_TRUE(is_power_of_two(align))
      << where("site_align") << " is " << align << ", not a power of two";
  // x86: 1 and a 5-byte NOP; aarch64, riscv64: 4 and a 4-byte NOP.
  EXPECT_EQ(patch.nop.size() % align, 0u)
      << where("site_align") << " (" << align
      << ") does not divide the size of site_encodings[0].nop ("
      << patch.nop.size() << ")";
  // The trap goes in with one store: a single byte, or an aligned store
  // that the site's alignment allows.
  EXPECT_TRUE(patch.trap.size() == 1 || (is_power_of_two(patch.trap.size()) &&
                                         patch.trap.size() <= align))
      << where("site_encodings[0].trap") << " (" << patch.trap.size()
      << " bytes) is not one atomic store at a " << align
      << "-byte aligned site";
  // Without the trap-first protocol the whole jump replaces the NOP with
  // one store, which needs a power-of-two size the alignment covers.
  for (const SiteEncoding &e : d().site_encodings) {
    if (!d().takes_jumps(e) || d().jump_needs_trap_first_of(e) ||
        (&e == &patch && d().encode_jump_nop))
      continue;
    EXPECT_TRUE(is_power_of_two(e.nop.size()) && e.nop.size() <= align)
        << where("jump_needs_trap_first") << " is false for " << e.what
        << ", but the " << e.nop.size() << "-byte jump is not one store at a "
        << align << "-byte aligned site";
    EXPECT_TRUE(is_power_of_two(e.trap.size()) && e.trap.size() <= align)
        << e.what << ": the trap (" << e.trap.size() << " bytes) is not one "
        << "atomic store at a " << align << "-byte aligned site";
  }
}

// ---- Jumps ------------------------------------------------------------------

// A site that every alignment divides, low enough for 32-bit arches.
constexpr std::uint64_t kSite = 0x10000000;

TEST_P(Descriptor, JumpsRoundTrip) {
  ASSERT_NE(d().encode_jump, nullptr) << where("encode_jump") << " is null";
  ASSERT_NE(d().decode_jump, nullptr) << where("decode_jump") << " is null";
  for (const SiteEncoding *e : jump_encodings()) {
    SCOPED_TRACE(e->what);
    JumpsRoundTripIn(*e);
  }
}

void Descriptor::JumpsRoundTripIn(const SiteEncoding &e) const {
  const auto &nop = e.nop;
  const std::size_t size = nop.size();
  // Forward and backward, near and within 64 KiB (the out-of-line block is
  // in the site's own function), all aligned for any arch.
  const std::int64_t offsets[] = {
      static_cast<std::int64_t>(size), 64, -64, 4096, -4096, 65536, -65536};
  for (std::uint64_t site : {kSite, kSite + 4096 * 16}) {
    for (std::int64_t off : offsets) {
      const std::uint64_t target = site + static_cast<std::uint64_t>(off);
      const std::string field = where("encode_jump") + " from " + hex(site) +
                                " by " + std::to_string(off);
      unsigned char jump[16];
      std::memset(jump, 0xa5, sizeof jump);
      ASSERT_TRUE(d().encode_jump_of(e, site, target, jump))
          << field << ": a reachable target is refused";
      for (std::size_t i = size; i < sizeof jump; ++i)
        EXPECT_EQ(jump[i], 0xa5) << field << " writes byte " << i
                                 << ", past the " << size << "-byte site";
      EXPECT_FALSE(std::equal(nop.begin(), nop.end(), jump))
          << field << " gives the NOP";
      std::uint64_t back = 0;
      EXPECT_TRUE(d().decode_jump_of(e, site, jump, &back))
          << where("decode_jump") << " refuses the jump encode_jump made "
          << "(" << hex({jump, size}) << ")";
      EXPECT_EQ(hex(back), hex(target))
          << where("decode_jump") << " of " << hex({jump, size}) << " at site "
          << hex(site) << ": a different target than encode_jump's";
    }
  }
}

// A NOP that names its target (s390x's brcl 0,target) differs from the
// jump in bytes that one aligned store writes, so that enabling and
// disabling need no protocol; and it is no jump. Without encode_jump_nop
// every jump site holds the one patch NOP.
TEST_P(Descriptor, JumpNopsDifferFromTheJumpInOneStore) {
  const std::size_t size = d().site_encodings[0].nop.size();
  if (!d().encode_jump_nop) {
    const auto &nop = d().site_encodings[0].nop;
    unsigned char got[16];
    std::memset(got, 0xa5, sizeof got);
    ASSERT_TRUE(d().jump_site_nop(kSite, kSite + 64, got));
    EXPECT_TRUE(std::equal(nop.begin(), nop.end(), got))
        << where("jump_site_nop") << " gives " << hex({got, size})
        << ", not site_encodings[0].nop " << hex(nop);
    return;
  }
  for (std::int64_t off :
       {std::int64_t{64}, std::int64_t{-4096}, std::int64_t{65536}}) {
    const std::uint64_t target = kSite + static_cast<std::uint64_t>(off);
    unsigned char nop[16], jump[16];
    ASSERT_TRUE(d().encode_jump_nop(kSite, target, nop))
        << where("encode_jump_nop") << " refuses a reachable target";
    ASSERT_TRUE(d().encode_jump(kSite, target, jump));
    std::uint64_t decoded = 0;
    EXPECT_FALSE(d().decode_jump(kSite, nop, &decoded))
        << where("decode_jump") << " reads the disabled site "
        << hex({nop, size}) << " as a jump";
    std::size_t lo = 0, hi = size;
    while (lo < hi && nop[lo] == jump[lo])
      ++lo;
    while (hi > lo && nop[hi - 1] == jump[hi - 1])
      --hi;
    const std::size_t changed = hi - lo;
    EXPECT_TRUE(changed > 0 && is_power_of_two(changed) &&
                changed <= d().site_align && lo % changed == 0)
        << where("encode_jump_nop") << ": " << hex({nop, size}) << " and the "
        << "jump " << hex({jump, size}) << " differ in bytes " << lo << ".."
        << hi << ", not one aligned store at a " << d().site_align
        << "-byte aligned site";
  }
}

// No 8-byte site holds a jump of 1 TiB: no ISA has one, and a 32-bit arch
// has no such address. A port whose jump reached it (an absolute jump
// with a 56-bit address) would say so here.
TEST_P(Descriptor, JumpRefusesUnreachableTargets) {
  constexpr std::uint64_t kTiB = std::uint64_t{1} << 40;
  unsigned char jump[16];
  for (const SiteEncoding *e : jump_encodings()) {
    EXPECT_FALSE(d().encode_jump_of(*e, kSite, kSite + kTiB, jump))
        << where("encode_jump") << " of " << e->what
        << " accepts a target 1 TiB ahead";
    EXPECT_FALSE(d().encode_jump_of(*e, kSite + kTiB, kSite, jump))
        << where("encode_jump") << " of " << e->what
        << " accepts a target 1 TiB behind";
  }
}

// The runtime tells a patched site from a disabled or trapped one by
// decoding it.
TEST_P(Descriptor, NopsAndTrapsAreNoJumps) {
  const std::size_t size = d().site_encodings[0].nop.size();
  for (std::size_t i = 0; i < d().site_encodings.size(); ++i) {
    const SiteEncoding &e = d().site_encodings[i];
    const std::string field = "site_encodings[" + std::to_string(i) + "]";
    // The NOP repeated to the patch width (as a run of short NOPs), and
    // the trap over its head.
    unsigned char bytes[16] = {};
    for (std::size_t at = 0; at < size; at += e.nop.size())
      std::memcpy(bytes + at, e.nop.data(), std::min(e.nop.size(), size - at));
    std::uint64_t target = 0;
    unsigned char trapped[16];
    std::memcpy(trapped, bytes, sizeof trapped);
    std::memcpy(trapped, e.trap.data(), e.trap.size());
    for (const SiteEncoding *j : jump_encodings()) {
      EXPECT_FALSE(d().decode_jump_of(*j, kSite, bytes, &target))
          << where("decode_jump") << " of " << j->what << " reads " << field
          << ".nop (" << hex({bytes, size}) << ") as a jump";
      EXPECT_FALSE(d().decode_jump_of(*j, kSite, trapped, &target))
          << where("decode_jump") << " of " << j->what << " reads " << field
          << ".trap over its nop (" << hex({trapped, size}) << ") as a jump";
    }
  }
}

// ---- Registers --------------------------------------------------------------

TEST_P(Descriptor, RegisterTable) {
  ASSERT_NE(d().registers, nullptr) << where("registers") << " is null";
  const std::vector<RegisterInfo> &table = d().registers();
  ASSERT_FALSE(table.empty()) << where("registers()") << " is empty";
  std::map<std::string, const RegisterInfo *> by_name;
  for (const RegisterInfo &r : table) {
    EXPECT_FALSE(r.name.empty()) << where("registers()") << ": an empty name";
    EXPECT_TRUE(by_name.emplace(r.name, &r).second)
        << where("registers()") << ": " << r.name << " twice";
    // Names are words for the toolkit's lexer, and carry no prefix.
    for (char c : r.name)
      EXPECT_TRUE(detail::is_word_char(c))
          << where("registers()") << ": " << r.name << " has '" << c << "'";
  }
  std::map<int, std::string> full_by_dwarf;
  for (const RegisterInfo &r : table) {
    const std::string reg = where("registers()") + ": " + r.name;
    EXPECT_GT(r.bit_width, 0) << reg << " has no bits";
    EXPECT_GE(r.bit_offset, 0) << reg;
    auto full = by_name.find(r.full_name);
    if (full == by_name.end()) {
      ADD_FAILURE() << reg << ": its full_name " << r.full_name
                    << " is not a register of the table";
      continue;
    }
    const RegisterInfo &f = *full->second;
    EXPECT_EQ(f.full_name, f.name)
        << reg << ": its full register " << f.name << " is not its own";
    EXPECT_EQ(r.dwarf, f.dwarf)
        << reg << ": not the DWARF number of " << f.name;
    EXPECT_EQ(r.cls, f.cls) << reg << ": not the class of " << f.name;
    EXPECT_LE(r.bit_offset + r.bit_width, f.bit_width)
        << reg << ": bits " << r.bit_offset << ".."
        << r.bit_offset + r.bit_width - 1 << " lie outside " << f.name;
    if (r.name == r.full_name && r.dwarf >= 0) {
      auto [at, fresh] = full_by_dwarf.emplace(r.dwarf, r.name);
      EXPECT_TRUE(fresh) << reg << " and " << at->second
                         << " have DWARF number " << r.dwarf;
    }
    if (r.cls == RegisterClass::General) {
      // A slot of the evaluator's register file (argeval.h).
      EXPECT_GE(r.dwarf, 0) << reg << ": a general register without a "
                            << "DWARF number";
      EXPECT_LT(r.dwarf, kRegisterFileSize)
          << reg << ": DWARF number " << r.dwarf
          << " is past the register file (kRegisterFileSize "
          << kRegisterFileSize << ")";
      EXPECT_EQ(f.bit_width, d().word_bits)
          << reg << ": its full register " << f.name << " is not "
          << d().word_bits << " bits (word_bits)";
    }
  }
}

// Each full-width general register, written "<word bytes>@<prefix><name>",
// is a portable register spec that the evaluator reads from its slot: the
// grammar accepts the register_prefix and every name of the table.
TEST_P(Descriptor, GeneralRegistersAreSpecs) {
  ASSERT_NE(d().parse_operand, nullptr) << where("parse_operand") << " is null";
  ASSERT_NE(d().register_prefix, nullptr)
      << where("register_prefix") << " is null";
  const Arch arch = GetParam();
  const int bytes = d().word_bits / 8;
  int tried = 0;
  for (const RegisterInfo &r : d().registers()) {
    if (r.cls != RegisterClass::General || r.name != r.full_name)
      continue;
    ++tried;
    const std::string spec =
        std::to_string(bytes) + "@" + d().register_prefix + r.name;
    const std::string field =
        where("register_prefix/parse_operand") + ": '" + spec + "'";
    auto loc = parse_arg_spec(spec, arch);
    if (!loc) {
      ADD_FAILURE() << field << " does not parse: " << loc.error().to_string();
      continue;
    }
    EXPECT_EQ(loc->kind, LocationKind::Register)
        << field << " is " << kind_name(loc->kind) << ", not a register";
    EXPECT_EQ(loc->base_reg, r.name) << field;
    if (!loc->base) {
      ADD_FAILURE() << field << " has no base register";
      continue;
    }
    EXPECT_EQ(loc->base->dwarf, r.dwarf) << field;
    // Some registers have no bare spelling that every consumer reads
    // (armhf's r11..r14: gdb reads only rN, libbpf only fp, ip, sp, lr);
    // the arch's own rule says so, and the generic rules are not asked.
    if (d().location_violation && d().location_violation(*loc))
      continue;
    EXPECT_EQ(portability_violation(*loc, arch), std::nullopt)
        << field << " is not portable: "
        << portability_violation(*loc, arch).value_or("");
    auto compiled = compile_arg(*loc, arch);
    if (!compiled) {
      ADD_FAILURE() << field
                    << " does not compile: " << compiled.error().to_string();
      continue;
    }
    RegisterFile regs = tests::zero_regs();
    regs.regs[r.dwarf] = 0x0123456789abcdefu;
    EvalValue value;
    EXPECT_TRUE(evaluate(compiled.value(), regs, MemoryReader{}, &value))
        << field;
    const std::uint64_t want = bytes == 8 ? 0x0123456789abcdefu : 0x89abcdefu;
    EXPECT_EQ(value.bits, want) << field << " reads another slot";
  }
  EXPECT_GT(tried, 0) << where("registers()")
                      << " has no full-width general register";
}

// Every name of the table is read as that register, whatever its class.
TEST_P(Descriptor, EveryRegisterNameParses) {
  const Arch arch = GetParam();
  for (const RegisterInfo &r : d().registers()) {
    const std::string spec = "8@" + std::string(d().register_prefix) + r.name;
    auto loc = parse_arg_spec(spec, arch);
    if (!loc) {
      ADD_FAILURE() << where("parse_operand") << ": '" << spec
                    << "' does not parse: " << loc.error().to_string();
      continue;
    }
    EXPECT_EQ(loc->kind, LocationKind::Register)
        << where("parse_operand") << ": '" << spec << "' is "
        << kind_name(loc->kind);
    EXPECT_EQ(loc->base_reg, r.name) << where("parse_operand") << ": " << spec;
  }
}

TEST_P(Descriptor, PortabilityHooks) {
  if (const char *reason = d().wide_register_value_reason) {
    EXPECT_NE(*reason, '\0') << where("wide_register_value_reason")
                             << " is empty (leave it null instead)";
  }
  // The arch's own rules may only add reasons, never empty ones.
  if (!d().register_name_violation)
    return;
  for (const RegisterInfo &r : d().registers()) {
    if (auto why = d().register_name_violation(r)) {
      EXPECT_FALSE(why->empty()) << where("register_name_violation") << " of "
                                 << r.name << " is empty";
    }
  }
}

} // namespace
} // namespace xsdt
