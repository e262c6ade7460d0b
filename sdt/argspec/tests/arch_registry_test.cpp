// The registry of arches (xsdt/arch_registry.h), generated from
// arches/*/arch.json: every arch is found by its name, its aliases and its
// ELF machine and class, and nothing else is found.
#include "argspec_testing.h"
#include "xsdt/arch_registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt {
namespace {

using tests::has;

// Every name and alias of every arch.
std::vector<std::string> all_names() {
  std::vector<std::string> names;
  for (Arch arch : all_arches()) {
    names.emplace_back(arch_name(arch));
    for (std::string_view alias : arch_aliases(arch))
      names.emplace_back(alias);
  }
  return names;
}

bool registered(const std::string &name) {
  for (const std::string &n : all_names())
    if (n == name)
      return true;
  return false;
}

TEST(Registry, ArchesInDirectoryOrder) {
  ASSERT_FALSE(all_arches().empty());
  // The order of arches/<arch>/ names: the fuzzers' selector bytes (and
  // sdt/fuzz/make_seeds.py) count on it.
  for (std::size_t i = 1; i < all_arches().size(); ++i)
    EXPECT_LT(arch_name(all_arches()[i - 1]), arch_name(all_arches()[i]))
        << "arches " << i - 1 << " and " << i;
}

TEST(Registry, NoNameIsTakenTwice) {
  std::set<std::string> seen;
  for (const std::string &name : all_names())
    EXPECT_TRUE(seen.insert(name).second)
        << "'" << name << "' names two arches, or one twice";
}

TEST(Registry, UnknownNames) {
  EXPECT_EQ(parse_arch(""), std::nullopt);
  EXPECT_EQ(parse_arch("sparc64"), std::nullopt);
  EXPECT_EQ(parse_arch("no-such-arch"), std::nullopt);
  for (const std::string &name : all_names()) {
    std::string upper = name;
    for (char &c : upper)
      if (c >= 'a' && c <= 'z')
        c = static_cast<char>(c - 'a' + 'A');
    if (!registered(upper)) {
      EXPECT_EQ(parse_arch(upper), std::nullopt) << upper;
    }
    EXPECT_EQ(parse_arch(name + " "), std::nullopt) << name;
    EXPECT_EQ(parse_arch(" " + name), std::nullopt) << name;
    const std::string shorter = name.substr(0, name.size() - 1);
    if (!registered(shorter)) {
      EXPECT_EQ(parse_arch(shorter), std::nullopt) << shorter;
    }
  }
}

TEST(Registry, UnknownElfMachines) {
  for (bool elf64 : {false, true}) {
    EXPECT_EQ(arch_for_elf(0, elf64), std::nullopt) << "EM_NONE";
    EXPECT_EQ(arch_for_elf(0xffff, elf64), std::nullopt);
  }
}

// An arch the registry does not hold (a copy of one it does) has no
// aliases and no name.
TEST(Registry, UnregisteredArch) {
  static ArchDescriptor stranger = all_arches()[0].descriptor();
  stranger.name = "stranger";
  EXPECT_TRUE(arch_aliases(Arch(stranger)).empty());
  EXPECT_EQ(parse_arch("stranger"), std::nullopt);
  EXPECT_NE(arch_for_elf(stranger.elf_machine, stranger.elf64), Arch(stranger));
}

// ---- Per arch -------------------------------------------------------------

class RegistryEntry : public ::testing::TestWithParam<Arch> {};

INSTANTIATE_TEST_SUITE_P(Arches, RegistryEntry,
                         ::testing::ValuesIn(all_arches()),
                         tests::arch_param_name);

TEST_P(RegistryEntry, NameRoundTrips) {
  const Arch arch = GetParam();
  const std::string name(arch_name(arch));
  EXPECT_EQ(name, arch.descriptor().name);
  EXPECT_EQ(parse_arch(name), arch) << name;
}

TEST_P(RegistryEntry, AliasesRoundTrip) {
  const Arch arch = GetParam();
  for (std::string_view alias : arch_aliases(arch)) {
    EXPECT_FALSE(alias.empty()) << arch_name(arch) << ": an empty alias";
    EXPECT_NE(alias, arch_name(arch)) << arch_name(arch);
    EXPECT_EQ(parse_arch(alias), arch) << arch_name(arch) << ": " << alias;
  }
}

TEST_P(RegistryEntry, ElfMachineAndClassFindIt) {
  const Arch arch = GetParam();
  const ArchDescriptor &d = arch.descriptor();
  // Arches that share a machine and class are told apart by their own
  // claims, tested with real files' bytes in their ports' tests.
  if (elf_machine_is_shared(arch)) {
    EXPECT_TRUE(d.elf_claims) << arch_name(arch) << ": shares elf_machine "
                              << d.elf_machine << " and says nothing";
    return;
  }
  EXPECT_EQ(arch_for_elf(d.elf_machine, d.elf64), arch)
      << arch_name(arch) << ": elf_machine " << d.elf_machine << ", elf64 "
      << d.elf64;
  // The other class of the same machine is another arch's or none.
  auto other = arch_for_elf(d.elf_machine, !d.elf64);
  if (other) {
    EXPECT_NE(*other, arch);
    EXPECT_EQ(other->descriptor().elf64, !d.elf64);
  }
}

// What runs the arch's programs (xsdt-trace -c): its triple names its
// cross sysroot, which its emulator's -L is; an arch without an emulator
// is the build host's own.
TEST_P(RegistryEntry, TripleAndEmulatorAgree) {
  const Arch arch = GetParam();
  const std::string triple(arch_triple(arch));
  EXPECT_NE(triple.find("-linux-gnu"), std::string::npos)
      << arch_name(arch) << ": triple " << triple;
  auto emulator = arch_emulator(arch);
  if (emulator.empty())
    return;
  EXPECT_EQ(emulator[0].substr(0, 5), "qemu-") << arch_name(arch);
  bool sysroot = false;
  for (std::size_t i = 0; i + 1 < emulator.size(); ++i)
    sysroot =
        sysroot || (emulator[i] == "-L" && emulator[i + 1] == "/usr/" + triple);
  EXPECT_TRUE(sysroot) << arch_name(arch) << ": no -L /usr/" << triple;
}

// A host loader runs the arch's programs from the same sysroot as its
// emulator: the sysroot's dynamic loader, with its libraries first. No arch
// has one for itself.
TEST_P(RegistryEntry, HostLoaderIsTheSysrootsLoader) {
  const Arch arch = GetParam();
  const std::string sysroot = "/usr/" + std::string(arch_triple(arch));
  EXPECT_TRUE(arch_host_loader(arch, arch_name(arch)).empty())
      << arch_name(arch);
  for (const Arch &host : all_arches()) {
    auto loader = arch_host_loader(arch, arch_name(host));
    if (loader.empty())
      continue;
    EXPECT_EQ(loader[0].substr(0, sysroot.size() + 5), sysroot + "/lib/")
        << arch_name(arch) << " on " << arch_name(host);
    ASSERT_EQ(loader.size(), 3u) << arch_name(arch);
    EXPECT_EQ(loader[1], "--library-path");
    EXPECT_EQ(loader[2], sysroot + "/lib");
  }
}

TEST_P(RegistryEntry, NamesTextListsIt) {
  const Arch arch = GetParam();
  const std::string text = arch_names_text();
  std::string entry(arch_name(arch));
  if (!arch_aliases(arch).empty()) {
    entry += " (";
    for (std::size_t i = 0; i < arch_aliases(arch).size(); ++i)
      entry += (i ? ", " : "") + std::string(arch_aliases(arch)[i]);
    entry += ")";
  }
  EXPECT_TRUE(has(text, entry)) << "'" << entry << "' not in '" << text << "'";
}

} // namespace
} // namespace xsdt
