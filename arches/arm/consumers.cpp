// What gdb, libbpf, bcc, perf and SystemTap accept of 32-bit ARM specs, as
// their parsers define it. Written from:
//   gdb     gdb/stap-probe.c and gdb/arm-linux-tdep.c's stap hooks:
//           integers `#N`, `$N` or bare, `[` `]` indirection with
//           arm_stap_parse_special_token for `[R, #D]`; a bare register
//           must be rN (arm_stap_is_single_operand). gdb 13 builds a
//           constant as a 32-bit long (sdt-facts §7).
//   libbpf  src/usdt.c parse_usdt_arg (arm): ' %d @ [ reg , #%ld ]',
//           ' %d @ [ reg ]' (its count of 2 is met before a ',' fails),
//           ' %d @ #%ld', ' %d @ reg'; calc_pt_regs_off r0..r10, fp, ip, sp,
//           lr, pc.
//   bcc     src/cc/usdt/usdt_args.cc has no 32-bit ARM parser.
//   perf    tools/perf/util/perf_regs.c: the weak arch_sdt_arg_parse_op
//           skips every argument (no arm one).
//   stap    sdt-facts §8 (measured, stap 4.8).
#include "arm/arm.h"

#include <cstdint>
#include <string>

namespace xsdt::arm {
namespace {

using namespace consumer_rules;

// The grammar keeps the '#' in the operand text only.
bool has_hash(const ArgLocation &loc) {
  return loc.operand.find('#') != std::string::npos;
}

bool r_number_name(const RegisterInfo &r) {
  return r.name.size() >= 2 && r.name[0] == 'r' && r.name[1] >= '0' &&
         r.name[1] <= '9';
}

Ruling gdb_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("gdb reads no symbol ('Operator not recognized')");
  case LocationKind::Immediate:
    if (loc.size == 8 &&
        (loc.immediate < INT32_MIN || loc.immediate > INT32_MAX))
      return misread("gdb 13 truncates a 64-bit immediate to 32 bits on "
                     "arm (sdt-facts §7)");
    return accepted();
  case LocationKind::Register:
    if (loc.base->cls != RegisterClass::General || !r_number_name(*loc.base))
      return rejected("gdb reads a bare register as rN only "
                      "(arm_stap_is_single_operand: 'Operator not "
                      "recognized')");
    return accepted();
  case LocationKind::Memory:
    if (loc.index)
      return rejected("gdb stops at the index register ('Missing "
                      "indirection suffix')");
    if (loc.base && loc.base->name == "fp")
      return misread("gdb reads fp as its frame-base register $fp, not r11 "
                     "(lit-tests/consumers, measured: [fp, #0] read 0)");
    return accepted();
  }
  return accepted();
}

bool libbpf_knows(const RegisterInfo &r) {
  if (r.cls == RegisterClass::Vector)
    return false;
  if (r_number_name(r))
    return r.dwarf <= 10;
  return r.name == "fp" || r.name == "ip" || r.name == "sp" || r.name == "lr" ||
         r.name == "pc";
}

Ruling libbpf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("libbpf's formats take [R, #D], [R], #N or R");
  case LocationKind::Immediate:
    if (!has_hash(loc))
      return rejected("libbpf reads a bare number as a register name "
                      "(' %d @ reg'), and no register is named so");
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (!loc.base || !libbpf_knows(*loc.base))
      return rejected("libbpf reads r0..r10, fp, ip, sp, lr, pc only "
                      "(calc_pt_regs_off)");
    if (loc.kind == LocationKind::Memory &&
        (loc.index || (loc.has_displacement && !has_hash(loc))))
      return misread("libbpf's ' %d @ [ reg ]' format counts 2 matches "
                     "before ', ...' fails: it reads [R] at offset 0");
    return accepted();
  }
  return accepted();
}

} // namespace

constinit const ConsumerGrammar kConsumerGrammar = {{
    {"gdb/stap-probe.c, gdb/arm-linux-tdep.c (arm_stap_*)", nullptr,
     gdb_operand},
    {"libbpf src/usdt.c parse_usdt_arg (arm)", nullptr, libbpf_operand},
    {"bcc src/cc/usdt/usdt_args.cc (no 32-bit ARM parser)",
     "bcc has no 32-bit ARM parser; its x86 fallback reads none of these "
     "operands",
     nullptr},
    {"linux tools/perf/util/perf_regs.c (weak arch_sdt_arg_parse_op)",
     "perf has no arm arch_sdt_arg_parse_op: it skips every argument", nullptr},
    {"SystemTap 4.8, measured (sdt-facts §8)", nullptr, stap_measured},
}};

} // namespace xsdt::arm
