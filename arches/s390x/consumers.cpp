// What gdb, libbpf, bcc, perf and SystemTap accept of s390x specs, as
// their parsers define it. Written from:
//   gdb     gdb/stap-probe.c and gdb/s390-linux-tdep.c's stap hooks: bare
//           integers, `%` registers, `(` `)` indirection after a written
//           displacement; the index's ',' is no indirection suffix.
//   libbpf  src/usdt.c parse_usdt_arg (s390x): ' %d @ %ld ( %%r%u )' (its
//           count of 3 is met before a ',' fails), ' %d @ %%r%u',
//           ' %d @ %ld'.
//   bcc     src/cc/usdt/usdt_args.cc ArgumentParser_s390x: N, %rN,
//           N?(%rN(,%rN)?).
//   perf    tools/perf/util/perf_regs.c: the weak arch_sdt_arg_parse_op
//           skips every argument (no s390 one).
//   stap    sdt-facts §8 (measured, stap 4.8).
#include "xsdt/arch_parts.h"

namespace xsdt::s390x {
namespace {

using namespace consumer_rules;

Ruling gdb_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic)
    return rejected("gdb reads no symbol ('Operator not recognized')");
  if (loc.index)
    return rejected("gdb stops at the index's ',' ('Missing indirection "
                    "suffix')");
  if (loc.kind == LocationKind::Memory && !loc.has_displacement)
    return rejected("gdb reads (%rN) only after a written displacement "
                    "(s390_stap_is_single_operand)");
  return accepted();
}

Ruling libbpf_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic)
    return rejected("libbpf's formats take D(%rN), %rN or N");
  if (loc.base && loc.base->cls != RegisterClass::General)
    return rejected("libbpf reads %r0..%r15 only");
  if (loc.kind == LocationKind::Memory && !loc.has_displacement)
    return rejected("libbpf requires the displacement: ' %d @ %ld ( %%r%u )'");
  if (loc.index)
    return misread("libbpf reads D(%rX,%rB) as D(%rX): sscanf has its 3 "
                   "matches before the ',' fails");
  return accepted();
}

Ruling bcc_operand(const ArgLocation &loc) {
  if (!loc.sized)
    return rejected("bcc's s390x parser needs SIZE@ (^(-?[0-9]+)@)");
  if (loc.kind == LocationKind::Symbolic)
    return rejected("no ArgumentParser_s390x regex matches a symbol");
  if (loc.base && loc.base->cls != RegisterClass::General)
    return rejected("bcc reads %r0..%r15 only");
  return accepted();
}

Ruling stap_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic || loc.index)
    return unknown("outside the portable subset; SystemTap's tapsets.cxx "
                   "was not read for this form");
  if (loc.kind == LocationKind::Immediate)
    return unknown("SystemTap's bare immediates are measured on aarch64 "
                   "(accepted) and riscv64 (rejected) only");
  return accepted();
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/stap-probe.c, gdb/s390-linux-tdep.c (s390_stap_*)", nullptr,
     gdb_operand},
    {"libbpf src/usdt.c parse_usdt_arg (s390x)", nullptr, libbpf_operand},
    {"bcc src/cc/usdt/usdt_args.cc ArgumentParser_s390x", nullptr, bcc_operand},
    {"linux tools/perf/util/perf_regs.c (weak arch_sdt_arg_parse_op)",
     "perf has no s390 arch_sdt_arg_parse_op: it skips every argument",
     nullptr},
    {"SystemTap 4.8, measured (sdt-facts §8)", nullptr, stap_operand},
}};

} // namespace xsdt::s390x
