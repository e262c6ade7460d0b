// What gdb, libbpf, bcc, perf and SystemTap accept of riscv64 specs, as
// their parsers define it. Written from:
//   gdb     gdb/riscv-linux-tdep.c sets no stap hooks in gdb 13
//           (stap_probe::can_evaluate_arguments is false there).
//   libbpf  src/usdt.c parse_usdt_arg (riscv): ' %d @ %ld ( reg )',
//           ' %d @ %ld', ' %d @ reg'; calc_pt_regs_off has the ABI names
//           ra sp gp tp a0-7 s0-11 t0-6 only.
//   bcc     src/cc/usdt/usdt_args.cc has no riscv parser: the x86 one reads
//           none of these operands.
//   perf    tools/perf/util/perf_regs.c: the weak arch_sdt_arg_parse_op
//           skips every argument (no riscv one).
//   stap    sdt-facts §8 (measured, stap 4.8: bare immediates rejected).
#include "xsdt/arch_parts.h"

namespace xsdt::riscv64 {
namespace {

using namespace consumer_rules;

bool abi_name(const RegisterInfo &r) {
  return r.cls == RegisterClass::General && r.name == r.full_name;
}

Ruling libbpf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("libbpf's formats take a number before '(' "
                    "(parse_usdt_arg riscv)");
  case LocationKind::Immediate:
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (!loc.base || !abi_name(*loc.base))
      return rejected("libbpf reads the ABI names ra sp gp tp a0-7 s0-11 "
                      "t0-6 only (calc_pt_regs_off): no fp, zero or xN");
    if (loc.kind == LocationKind::Memory && !loc.has_displacement)
      return rejected("libbpf requires the offset: ' %d @ %ld ( reg )'");
    return accepted();
  }
  return accepted();
}

Ruling stap_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Immediate)
    return rejected("SystemTap rejects a bare immediate on riscv64 "
                    "(sdt-facts §8, measured)");
  return stap_measured(loc);
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/riscv-linux-tdep.c (no stap hooks in gdb 13)",
     "gdb 13 has no riscv64 argument support: it sets no stap hooks", nullptr},
    {"libbpf src/usdt.c parse_usdt_arg (riscv)", nullptr, libbpf_operand},
    {"bcc src/cc/usdt/usdt_args.cc (no riscv parser)",
     "bcc has no riscv64 parser; its x86 fallback reads none of these "
     "operands",
     nullptr},
    {"linux tools/perf/util/perf_regs.c (weak arch_sdt_arg_parse_op)",
     "perf has no riscv arch_sdt_arg_parse_op: it skips every argument",
     nullptr},
    {"SystemTap 4.8, measured (sdt-facts §8)", nullptr, stap_operand},
}};

} // namespace xsdt::riscv64
