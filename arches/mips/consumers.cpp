// What gdb, libbpf, bcc, perf and SystemTap accept of MIPS specs, as their
// parsers define it. Written from:
//   gdb     gdb/mips-linux-tdep.c sets no stap hooks (gdb 13): gdb lists
//           the probes and reads no argument ("The SystemTap SDT probe
//           support is not fully implemented on this target").
//   libbpf  src/usdt.c: no mips branch of parse_usdt_arg ("usdt: libbpf
//           doesn't support USDTs on current architecture").
//   bcc     src/cc/usdt/usdt_args.cc has no MIPS parser; a MIPS build takes
//           the x86-64 one (#else ArgumentParser_x64), which reads `$N` as
//           the constant N and no MIPS register or memory form.
//   perf    tools/perf/util/perf_regs.c: the weak arch_sdt_arg_parse_op
//           skips every argument (no mips one).
//   stap    SystemTap was not measured on MIPS, nor its tapsets.cxx read.
#include "mips/mips.h"

namespace xsdt::mips {
namespace {

using namespace consumer_rules;

Ruling bcc_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Register)
    return misread("bcc's x86-64 parser, the one a MIPS build has, reads "
                   "$N as the constant N (ArgumentParser_x64)");
  return rejected("bcc's x86-64 parser, the one a MIPS build has, reads no "
                  "MIPS immediate or memory operand");
}

Ruling stap_operand(const ArgLocation &) {
  return unknown("SystemTap was not measured on MIPS");
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/mips-linux-tdep.c (no stap hooks)",
     "gdb has no stap argument support for MIPS: it lists the probes and "
     "reads no argument",
     nullptr},
    {"libbpf src/usdt.c parse_usdt_arg (no mips branch)",
     "libbpf has no MIPS USDT support ('doesn't support USDTs on current "
     "architecture')",
     nullptr},
    {"bcc src/cc/usdt/usdt_args.cc (no MIPS parser: ArgumentParser_x64)",
     nullptr, bcc_operand},
    {"linux tools/perf/util/perf_regs.c (weak arch_sdt_arg_parse_op)",
     "perf has no mips arch_sdt_arg_parse_op: it skips every argument",
     nullptr},
    {"SystemTap, not measured on MIPS", nullptr, stap_operand},
}};

} // namespace xsdt::mips
