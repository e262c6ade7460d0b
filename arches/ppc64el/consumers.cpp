// What gdb, libbpf, bcc, perf and SystemTap accept of ppc64el specs, as
// their parsers define it. Written from:
//   gdb     gdb/stap-probe.c and gdb/ppc-linux-tdep.c's stap hooks:
//           integers `iN`, registers by number (gdb adds its `r`),
//           `(` `)` indirection; the ',' of an indexed form is no operator.
//   libbpf  src/usdt.c: no powerpc branch of parse_usdt_arg.
//   bcc     src/cc/usdt/usdt_args.cc ArgumentParser_powerpc64: iN, N or
//           %rN, -?N(N), and N,N whose index it scales by the size.
//   perf    tools/perf/arch/powerpc/util/perf_regs.c arch_sdt_arg_parse_op:
//           skips iN; ^(%r)?N$ and ^-?N\((%r)?N\)$.
//   stap    sdt-facts §8 (measured, stap 4.8).
#include "xsdt/arch_parts.h"

#include <string>

namespace xsdt::ppc64el {
namespace {

using namespace consumer_rules;

// "3" or "%r3", not "r3"; the grammar keeps how it was written in name.
bool number_or_percent_r(const RegisterInfo &r, const std::string &operand) {
  return r.name == r.full_name || operand.find("%r") != std::string::npos;
}

Ruling gdb_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic)
    return rejected("gdb reads no symbol ('Operator not recognized')");
  if (loc.index)
    return rejected("gdb has no ',' operator ('Invalid operator `,'')");
  if (loc.base && loc.base->cls != RegisterClass::General)
    return unknown("gdb's ppc register names were not read for this one");
  if (loc.base && loc.base->name != loc.base->full_name)
    return rejected("gdb reads a general register by its number only "
                    "(ppc_stap_is_single_operand)");
  return accepted();
}

Ruling bcc_operand(const ArgLocation &loc) {
  if (!loc.sized)
    return rejected("bcc's powerpc64 parser needs SIZE@ (^-?[1248]@)");
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("no ArgumentParser_powerpc64 regex matches a symbol");
  case LocationKind::Immediate:
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (!loc.base || loc.base->cls != RegisterClass::General ||
        !number_or_percent_r(*loc.base, loc.operand))
      return rejected("bcc reads registers as N or %rN "
                      "(ArgumentParser_powerpc64)");
    if (loc.index)
      return misread("bcc scales the index register by the argument's size "
                     "(ArgumentParser_powerpc64: scale_ = size)");
    if (loc.kind == LocationKind::Memory && !loc.has_displacement)
      return rejected("bcc requires the displacement: -?N(REG)");
    return accepted();
  }
  return accepted();
}

Ruling perf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("perf skips it (arch_sdt_arg_parse_op's regexes)");
  case LocationKind::Immediate:
    return rejected("perf skips every iN immediate (arch_sdt_arg_parse_op)");
  case LocationKind::Register:
  case LocationKind::Memory:
    if (!loc.base || loc.base->cls != RegisterClass::General ||
        !number_or_percent_r(*loc.base, loc.operand))
      return rejected("perf skips it: registers are N or %rN");
    if (loc.index ||
        (loc.kind == LocationKind::Memory && !loc.has_displacement))
      return rejected("perf skips memory other than -?N(REG)");
    return accepted();
  }
  return accepted();
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/stap-probe.c, gdb/ppc-linux-tdep.c (ppc_stap_*)", nullptr,
     gdb_operand},
    {"libbpf src/usdt.c parse_usdt_arg (no powerpc branch)",
     "libbpf has no powerpc USDT support ('doesn't support USDTs on current "
     "architecture')",
     nullptr},
    {"bcc src/cc/usdt/usdt_args.cc ArgumentParser_powerpc64", nullptr,
     bcc_operand},
    {"linux tools/perf/arch/powerpc/util/perf_regs.c arch_sdt_arg_parse_op",
     nullptr, perf_operand},
    {"SystemTap 4.8, measured (sdt-facts §8)", nullptr, stap_measured},
}};

} // namespace xsdt::ppc64el
