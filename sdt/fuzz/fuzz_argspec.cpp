// Fuzzes the arg-spec parser: the input is one note's args string, parsed
// in the grammar of every arch of the build, then checked for portability and
// described as xsdt-inspect does. Beyond "no crash, no sanitizer report" it
// checks what argspec.h promises: at most kMaxArgs specs, sizes 1/2/4/8, error
// positions inside the input, the same answer spec by spec as for the whole
// string, and nothing symbolic inside the portable subset.
#include "describe.h"
#include "fuzz_support.h"
#include "xsdt/arch_registry.h"
#include "xsdt/argspec.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using xsdt::Arch;

void check_one(std::string_view args, Arch arch) {
  auto split = xsdt::split_arg_specs(args);
  auto parsed = xsdt::parse_arg_specs(args, arch);
  if (!parsed) {
    const xsdt::ParseError &e = parsed.error();
    XSDT_FUZZ_REQUIRE(e.position <= args.size());
    (void)e.to_string();
    // Serialized too: nlohmann-json refuses strings that are not UTF-8.
    (void)xsdt::inspect::json_line(xsdt::inspect::arg_error_json(args, e));
    return;
  }
  // Parsing succeeded, so splitting did, into the same pieces.
  XSDT_FUZZ_REQUIRE(split.ok());
  XSDT_FUZZ_REQUIRE(parsed->size() == split->size());
  XSDT_FUZZ_REQUIRE(parsed->size() <= xsdt::kMaxArgs);
  for (std::size_t i = 0; i < parsed->size(); ++i) {
    const xsdt::ArgLocation &loc = (*parsed)[i];
    const xsdt::SpecText &text = (*split)[i];
    XSDT_FUZZ_REQUIRE(loc.size == 1 || loc.size == 2 || loc.size == 4 ||
                      loc.size == 8);
    XSDT_FUZZ_REQUIRE(loc.spec == text.text);
    XSDT_FUZZ_REQUIRE(text.position + text.text.size() <= args.size());
    XSDT_FUZZ_REQUIRE(args.substr(text.position, text.text.size()) ==
                      text.text);
    if (loc.kind == xsdt::LocationKind::Register)
      XSDT_FUZZ_REQUIRE(!loc.base_reg.empty());
    auto alone = xsdt::parse_arg_spec(text.text, arch);
    XSDT_FUZZ_REQUIRE(alone.ok());
    XSDT_FUZZ_REQUIRE(alone->kind == loc.kind && alone->size == loc.size);
    auto why = xsdt::portability_violation(loc, arch);
    if (!why)
      XSDT_FUZZ_REQUIRE(loc.kind != xsdt::LocationKind::Symbolic);
    (void)xsdt::inspect::arg_text(loc, arch);
    (void)xsdt::inspect::json_line(xsdt::inspect::arg_json(loc, arch));
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  std::string_view args(reinterpret_cast<const char *>(data), size);
  for (Arch arch : xsdt::all_arches()) {
    check_one(args, arch);
    (void)xsdt::lookup_register(arch, args);
  }
  (void)xsdt::parse_arch(args);
  return 0;
}
