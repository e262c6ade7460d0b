// What gdb, libbpf, bcc, perf and SystemTap accept of aarch64 specs, as
// their parsers define it. Written from:
//   gdb     gdb/stap-probe.c and gdb/aarch64-linux-tdep.c's stap hooks:
//           integers `#N` or bare `N`, no register prefix, `[` `]`
//           indirection, and aarch64_stap_parse_special_token for
//           `[R, #?D]`; register names are gdb's (x, w, sp; no xzr).
//   libbpf  src/usdt.c parse_usdt_arg (aarch64): ' %d @ [ reg , %ld ]',
//           ' %d @ [ reg ]', ' %d @ %ld', ' %d @ reg', calc_pt_regs_off x0..x30
//           and sp. sscanf's count is met before a mismatch after `[reg`.
//   bcc     src/cc/usdt/usdt_args.cc ArgumentParser_aarch64 (xN, sp, [R],
//           [R, D] with strtoull, a bare number).
//   perf    tools/perf/arch/arm64/util/perf_regs.c arch_sdt_arg_parse_op:
//           ^(x[1-2]?[0-9]|3[0-1])$ and ^\[sp(, )?([0-9]+)?\]$.
//   stap    sdt-facts §8 (measured, stap 4.8: bare immediates accepted).
#include "xsdt/arch_parts.h"

#include <string>

namespace xsdt::aarch64 {
namespace {

using namespace consumer_rules;

bool is_x_or_sp(const RegisterInfo &r) {
  return r.cls == RegisterClass::General && r.bit_width == 64 &&
         r.name == r.full_name;
}

Ruling gdb_operand(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Symbolic)
    return rejected("gdb reads no relocation operator or symbol "
                    "(aarch64_stap_parse_special_token wants a number)");
  if (loc.index)
    return rejected("gdb reads a number after the comma in brackets "
                    "(aarch64_stap_parse_special_token), not a register");
  if (loc.base && loc.base->cls == RegisterClass::Zero)
    return rejected("gdb has no xzr/wzr register ('Invalid register name')");
  if (loc.base && loc.base->cls == RegisterClass::Vector)
    return unknown("gdb knows the vector register, but its value is a "
                   "union, not the argument's integer type");
  return accepted();
}

Ruling libbpf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("libbpf's formats take a number after the comma "
                    "(parse_usdt_arg aarch64)");
  case LocationKind::Immediate:
    if (loc.hash_immediate)
      return rejected("libbpf reads a bare number (' %d @ %ld'), not #N");
    return accepted();
  case LocationKind::Register:
    if (!is_x_or_sp(*loc.base))
      return rejected("libbpf reads only x0..x30 and sp (calc_pt_regs_off)");
    return accepted();
  case LocationKind::Memory:
    if (!loc.base || !is_x_or_sp(*loc.base))
      return rejected("libbpf reads only x0..x30 and sp (calc_pt_regs_off)");
    if (loc.index || loc.hash_immediate)
      return misread("libbpf's ' %d @ [ reg ]' format counts 2 matches "
                     "before ', ...' fails: it reads [R] at offset 0");
    return accepted();
  }
  return accepted();
}

Ruling bcc_operand(const ArgLocation &loc) {
  if (!loc.sized)
    return rejected("bcc's aarch64 parser needs SIZE@ (parse_size)");
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("bcc reads [R] or [R, NUM] only "
                    "(ArgumentParser_aarch64::parse_mem)");
  case LocationKind::Immediate:
    if (loc.hash_immediate)
      return rejected("bcc reads a bare number (parse_number), not #N");
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (!loc.base || !is_x_or_sp(*loc.base))
      return rejected("bcc reads only xN and sp "
                      "(ArgumentParser_aarch64::parse_register)");
    if (loc.index || loc.hash_immediate)
      return rejected("bcc reads a number after the comma (parse_number), "
                      "not '#' or a register");
    return accepted();
  }
  return accepted();
}

Ruling perf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
  case LocationKind::Immediate:
    return rejected("perf skips it: only xN and [sp, N] match "
                    "(arch_sdt_arg_parse_op)");
  case LocationKind::Register: {
    const std::string &n = loc.base->name;
    if (n.size() >= 2 && n[0] == 'x' && n != "xzr" && n.size() <= 3 &&
        (n.size() == 2 || n[1] == '1' || n[1] == '2'))
      return accepted();
    return rejected("perf skips it: its regex takes x0..x29 only "
                    "(^(x[1-2]?[0-9]|3[0-1])$)");
  }
  case LocationKind::Memory:
    if (loc.base->name == "sp" && !loc.index && !loc.hash_immediate &&
        loc.displacement >= 0)
      return accepted();
    return rejected("perf skips memory other than [sp] and [sp, N] "
                    "(arch_sdt_arg_parse_op)");
  }
  return accepted();
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/stap-probe.c, gdb/aarch64-linux-tdep.c (aarch64_stap_*)", nullptr,
     gdb_operand},
    {"libbpf src/usdt.c parse_usdt_arg (aarch64)", nullptr, libbpf_operand},
    {"bcc src/cc/usdt/usdt_args.cc ArgumentParser_aarch64", nullptr,
     bcc_operand},
    {"linux tools/perf/arch/arm64/util/perf_regs.c arch_sdt_arg_parse_op",
     nullptr, perf_operand},
    {"SystemTap 4.8, measured (sdt-facts §8)", nullptr, stap_measured},
}};

} // namespace xsdt::aarch64
