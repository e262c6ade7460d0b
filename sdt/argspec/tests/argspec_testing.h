// Helpers of the arg-spec and evaluator tests, shared by the generic tests
// here and by each arch's tests in arches/<arch>/tests/: parse or fail with
// a test failure, the portability verdict as a string, and a fake address
// space for the evaluator.
#ifndef XSDT_ARGSPEC_TESTS_ARGSPEC_TESTING_H
#define XSDT_ARGSPEC_TESTS_ARGSPEC_TESTING_H

#include "xsdt/argeval.h"
#include "xsdt/argspec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt {

// gtest prints an Arch (a parameter, an expected value) by its name.
inline void PrintTo(Arch arch, std::ostream *os) { *os << arch_name(arch); }

} // namespace xsdt

namespace xsdt::tests {

inline ArgLocation must_parse(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (!r) {
    ADD_FAILURE() << spec << ": " << r.error().to_string();
    return {};
  }
  return r.value();
}

inline ParseError must_fail(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (r) {
    ADD_FAILURE() << spec << " parsed, expected an error";
    return {};
  }
  return r.error();
}

// "" when portable, else the reason.
inline std::string violation(std::string_view spec, Arch arch) {
  auto r = parse_arg_spec(spec, arch);
  if (!r) {
    ADD_FAILURE() << spec << ": " << r.error().to_string();
    return "<parse error>";
  }
  return portability_violation(r.value(), arch).value_or("");
}

// Each register spec names the register whose DWARF number the ABI gives
// (a table written from the ABI document, not from the descriptor).
struct DwarfNumber {
  const char *spec;
  int dwarf;
};
inline void expect_dwarf_numbers(Arch arch,
                                 std::initializer_list<DwarfNumber> table) {
  for (const DwarfNumber &row : table) {
    const ArgLocation loc = must_parse(row.spec, arch);
    if (!loc.base) {
      ADD_FAILURE() << row.spec << " has no base register";
      continue;
    }
    EXPECT_EQ(loc.base->dwarf, row.dwarf) << row.spec;
  }
}

inline bool has(const std::string &text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// A fake address space: one window of bytes at `base`; everything else is
// unreadable. Records the last address asked for.
struct FakeMemory {
  std::uint64_t base = 0;
  std::vector<unsigned char> bytes;
  std::uint64_t last_addr = 0;
  int reads = 0;

  static bool read(void *ctx, std::uint64_t addr, void *dst, std::size_t n) {
    auto *m = static_cast<FakeMemory *>(ctx);
    m->last_addr = addr;
    ++m->reads;
    if (addr < m->base || addr - m->base + n > m->bytes.size())
      return false;
    std::memcpy(dst, m->bytes.data() + (addr - m->base), n);
    return true;
  }
  MemoryReader reader() { return MemoryReader{&FakeMemory::read, this}; }
  void put(std::uint64_t addr, const void *src, std::size_t n) {
    std::memcpy(bytes.data() + (addr - base), src, n);
  }
};

inline CompiledArg must_compile(std::string_view spec, Arch arch) {
  auto loc = parse_arg_spec(spec, arch);
  if (!loc) {
    ADD_FAILURE() << spec << ": " << loc.error().to_string();
    return {};
  }
  auto c = compile_arg(loc.value(), arch);
  if (!c) {
    ADD_FAILURE() << spec << ": " << c.error().to_string();
    return {};
  }
  return c.value();
}

inline std::string compile_failure(std::string_view spec, Arch arch) {
  auto loc = parse_arg_spec(spec, arch);
  if (!loc) {
    ADD_FAILURE() << spec << ": " << loc.error().to_string();
    return {};
  }
  auto c = compile_arg(loc.value(), arch);
  if (c) {
    ADD_FAILURE() << spec << " compiled, expected an error";
    return {};
  }
  return c.error().message;
}

// Evaluates spec against regs and mem; fails the test if evaluation fails.
inline EvalValue eval(std::string_view spec, Arch arch,
                      const RegisterFile &regs, FakeMemory *mem = nullptr) {
  CompiledArg c = must_compile(spec, arch);
  EvalValue v;
  MemoryReader r = mem ? mem->reader() : MemoryReader{};
  EXPECT_TRUE(evaluate(c, regs, r, &v)) << spec;
  return v;
}

inline RegisterFile zero_regs() {
  RegisterFile r;
  std::memset(&r, 0, sizeof r);
  return r;
}

inline std::uint64_t u64(std::int64_t v) {
  return static_cast<std::uint64_t>(v);
}

// The name of a test parameterized on an arch: the arch's name, with '_'
// for each character a gtest name cannot hold.
inline std::string arch_param_name(const ::testing::TestParamInfo<Arch> &info) {
  std::string name(arch_name(info.param));
  for (char &c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9')))
      c = '_';
  return name;
}

} // namespace xsdt::tests

#endif // XSDT_ARGSPEC_TESTS_ARGSPEC_TESTING_H
