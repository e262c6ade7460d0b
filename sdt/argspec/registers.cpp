// Register tables for the four architectures. Numbers are the DWARF
// register numbers of the containing register (x86-64 and i386 psABIs,
// AArch64 DWARF ABI, RISC-V ELF psABI): a stable numbering that the unwinder,
// gdb and a ucontext reader can all be mapped from.
#include "xsdt/argspec.h"

#include <array>
#include <string>
#include <vector>

namespace xsdt {
namespace {

using Table = std::vector<RegisterInfo>;

void add(Table &t, std::string name, std::string full, int dwarf, int offset,
         int width, RegisterClass cls = RegisterClass::General) {
  t.push_back(RegisterInfo{std::move(name), std::move(full), dwarf, offset,
                           width, cls});
}

// rax..rdi and rsp/rbp with their 32-, 16- and 8-bit names. `wide` is the
// prefix of the full name: "r" on x86-64, "e" on i386.
void add_x86_legacy(Table &t, const char *wide, bool x86_64) {
  struct Legacy {
    const char *stem; // "a" for rax/eax/ax/al/ah, "si" for rsi/esi/si/sil
    int dwarf64, dwarf32;
    bool has_high_byte;
  };
  static constexpr std::array<Legacy, 8> kLegacy{{{"a", 0, 0, true},
                                                  {"d", 1, 2, true},
                                                  {"c", 2, 1, true},
                                                  {"b", 3, 3, true},
                                                  {"si", 4, 6, false},
                                                  {"di", 5, 7, false},
                                                  {"bp", 6, 5, false},
                                                  {"sp", 7, 4, false}}};
  int full_width = x86_64 ? 64 : 32;
  for (const Legacy &r : kLegacy) {
    std::string stem = r.stem;
    std::string x = r.has_high_byte ? stem + "x" : stem; // ax, si
    std::string full = wide + x;
    int dwarf = x86_64 ? r.dwarf64 : r.dwarf32;
    add(t, full, full, dwarf, 0, full_width);
    if (x86_64)
      add(t, "e" + x, full, dwarf, 0, 32);
    add(t, x, full, dwarf, 0, 16);
    if (r.has_high_byte) {
      add(t, stem + "l", full, dwarf, 0, 8);
      add(t, stem + "h", full, dwarf, 8, 8);
    } else if (x86_64) {
      add(t, stem + "l", full, dwarf, 0, 8); // sil, dil, bpl, spl need REX
    }
  }
}

Table make_x86_64() {
  Table t;
  add_x86_legacy(t, "r", true);
  for (int n = 8; n <= 15; ++n) {
    std::string full = "r" + std::to_string(n);
    add(t, full, full, n, 0, 64);
    add(t, full + "d", full, n, 0, 32);
    add(t, full + "w", full, n, 0, 16);
    add(t, full + "b", full, n, 0, 8);
    add(t, full + "l", full, n, 0, 8); // gdb's spelling of r8b
  }
  add(t, "rip", "rip", 16, 0, 64, RegisterClass::ProgramCounter);
  add(t, "eip", "rip", 16, 0, 32, RegisterClass::ProgramCounter);
  for (int n = 0; n < 32; ++n) {
    std::string name = "xmm" + std::to_string(n);
    add(t, name, name, n < 16 ? 17 + n : 67 + (n - 16), 0, 128,
        RegisterClass::Vector);
  }
  return t;
}

Table make_i386() {
  Table t;
  add_x86_legacy(t, "e", false);
  add(t, "eip", "eip", 8, 0, 32, RegisterClass::ProgramCounter);
  for (int n = 0; n < 8; ++n) {
    std::string name = "xmm" + std::to_string(n);
    add(t, name, name, 21 + n, 0, 128, RegisterClass::Vector);
  }
  return t;
}

Table make_aarch64() {
  Table t;
  for (int n = 0; n <= 30; ++n) {
    std::string x = "x" + std::to_string(n);
    add(t, x, x, n, 0, 64);
    add(t, "w" + std::to_string(n), x, n, 0, 32);
  }
  add(t, "fp", "x29", 29, 0, 64);
  add(t, "lr", "x30", 30, 0, 64);
  add(t, "sp", "sp", 31, 0, 64);
  add(t, "wsp", "sp", 31, 0, 32);
  add(t, "xzr", "xzr", -1, 0, 64, RegisterClass::Zero);
  add(t, "wzr", "xzr", -1, 0, 32, RegisterClass::Zero);
  static constexpr std::array<std::pair<char, int>, 6> kVector{
      {{'v', 128}, {'q', 128}, {'d', 64}, {'s', 32}, {'h', 16}, {'b', 8}}};
  for (int n = 0; n < 32; ++n)
    for (auto [prefix, width] : kVector)
      add(t, prefix + std::to_string(n), "v" + std::to_string(n), 64 + n, 0,
          width, RegisterClass::Vector);
  return t;
}

Table make_riscv64() {
  static constexpr std::array<const char *, 32> kAbi{
      "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
      "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static constexpr std::array<const char *, 32> kFpAbi{
      "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
      "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
      "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
      "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  Table t;
  for (int n = 0; n < 32; ++n) {
    RegisterClass cls = n == 0 ? RegisterClass::Zero : RegisterClass::General;
    std::string abi = kAbi[static_cast<std::size_t>(n)];
    add(t, abi, abi, n, 0, 64, cls);
    add(t, "x" + std::to_string(n), abi, n, 0, 64, cls);
  }
  add(t, "fp", "s0", 8, 0, 64);
  for (int n = 0; n < 32; ++n) {
    std::string abi = kFpAbi[static_cast<std::size_t>(n)];
    add(t, abi, abi, 32 + n, 0, 64, RegisterClass::Vector);
    add(t, "f" + std::to_string(n), abi, 32 + n, 0, 64, RegisterClass::Vector);
  }
  return t;
}

const Table &table(Arch arch) {
  static const Table x86_64 = make_x86_64();
  static const Table i386 = make_i386();
  static const Table aarch64 = make_aarch64();
  static const Table riscv64 = make_riscv64();
  switch (arch) {
  case Arch::X86_64:
    return x86_64;
  case Arch::I386:
    return i386;
  case Arch::AArch64:
    return aarch64;
  case Arch::RiscV64:
    return riscv64;
  }
  return x86_64;
}

} // namespace

std::optional<RegisterInfo> lookup_register(Arch arch, std::string_view name) {
  for (const RegisterInfo &r : table(arch))
    if (r.name == name)
      return r;
  return std::nullopt;
}

std::optional<Arch> parse_arch(std::string_view name) {
  if (name == "x86_64" || name == "x86-64" || name == "amd64")
    return Arch::X86_64;
  if (name == "i386" || name == "i686")
    return Arch::I386;
  if (name == "aarch64" || name == "arm64")
    return Arch::AArch64;
  if (name == "riscv64")
    return Arch::RiscV64;
  return std::nullopt;
}

std::string_view arch_name(Arch arch) {
  switch (arch) {
  case Arch::X86_64:
    return "x86_64";
  case Arch::I386:
    return "i386";
  case Arch::AArch64:
    return "aarch64";
  case Arch::RiscV64:
    return "riscv64";
  }
  return "unknown";
}

} // namespace xsdt
