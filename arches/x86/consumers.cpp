// What gdb, libbpf, bcc, perf and SystemTap accept of x86 (AT&T) specs, on
// x86_64 and i386 alike, as their parsers define it. Written from:
//   gdb     gdb/stap-probe.c (stap_parse_argument and the operand parsers:
//           `$` integers, `%` registers, `(...)` indirection) and
//           gdb/i386-tdep.c's stap hooks (i386_stap_parse_special_token:
//           the `D+D-D(%r)` triplet and `D(%b,%i,S)` forms); register names
//           are gdb's own (user_reg_map_name_to_regnum), which spell the low
//           bytes of r8..r15 r8l..r15l (amd64-tdep.c).
//   libbpf  src/usdt.c parse_usdt_arg (x86) and its calc_pt_regs_off table.
//   bcc     src/cc/usdt/usdt_args.cc ArgumentParser_x64 and its register
//           table; bcc uses this parser on every arch it has no parser for.
//   perf    tools/perf/arch/x86/util/perf_regs.c arch_sdt_arg_parse_op: one
//           regex, [+-]?NUM?(?%reg)?, and a rename table to uprobe names.
//   stap    sdt-facts §8 (measured, stap 4.8); the forms outside the
//           portable subset are not settled by what was read.
#include "x86/x86.h"

#include <string>

namespace xsdt::x86 {
namespace {

using namespace consumer_rules;

// A bare number is an absolute address in AT&T syntax (`-4@42`): memory
// with no register.
bool is_absolute(const ArgLocation &loc) {
  return loc.kind == LocationKind::Memory && !loc.base && !loc.index;
}

bool is_high_byte(const RegisterInfo &r) {
  return r.bit_offset == 8 && r.bit_width == 8;
}
// r8b..r15b: the byte names gas prints for r8..r15.
bool is_rex_b_name(const RegisterInfo &r) {
  return r.name.size() >= 3 && r.name[0] == 'r' && r.name.back() == 'b' &&
         r.bit_width == 8;
}
// r8l..r15l: gdb's spelling of the same.
bool is_rex_l_name(const RegisterInfo &r) {
  return r.name.size() >= 3 && r.name[0] == 'r' && r.name.back() == 'l' &&
         r.name[1] >= '0' && r.name[1] <= '9';
}

// ---- gdb
Ruling gdb_register(const RegisterInfo &r) {
  if (is_rex_b_name(r))
    return rejected("gdb names the low bytes of r8..r15 r8l..r15l "
                    "(amd64-tdep.c): 'Invalid register name'");
  if (r.cls == RegisterClass::Vector)
    return unknown("gdb knows the xmm register, but its value is a vector "
                   "union, not the argument's integer type");
  return accepted();
}

Ruling gdb_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("gdb's operand parser reads no symbol name "
                    "(stap_parse_single_operand: 'Operator not recognized')");
  case LocationKind::Immediate:
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (is_absolute(loc))
      return unknown("an absolute address: gdb's reading of a bare x86 "
                     "number was not settled");
    if (loc.base)
      if (Ruling r = gdb_register(*loc.base); r.verdict != Verdict::Accepted)
        return r;
    if (loc.index)
      if (Ruling r = gdb_register(*loc.index); r.verdict != Verdict::Accepted)
        return r;
    return accepted();
  }
  return accepted();
}

// i386: gdb 13 builds the constant as a 32-bit long (sdt-facts §2).
Ruling gdb_operand_32(const ArgLocation &loc) {
  if (loc.kind == LocationKind::Immediate && loc.size == 8 &&
      (loc.immediate < INT32_MIN || loc.immediate > INT32_MAX))
    return misread("gdb 13 truncates a 64-bit immediate to 32 bits on i386 "
                   "(sdt-facts §2: -8@$4886718345 reads 591751049)");
  return gdb_operand(loc);
}

// ---- libbpf
// calc_pt_regs_off: rip/eip, the legacy registers with their e/16/8-bit
// low names (no ah..dh), r8..r15 with d, w, b; nothing else.
bool libbpf_knows(const RegisterInfo &r) {
  if (r.cls == RegisterClass::Vector || r.cls == RegisterClass::Zero)
    return false;
  return !is_high_byte(r) && !is_rex_l_name(r);
}

Ruling libbpf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("libbpf's formats take a number before '(' "
                    "(parse_usdt_arg: ' %d @ %ld ( %%reg )'), not a symbol");
  case LocationKind::Immediate:
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (is_absolute(loc))
      return rejected("libbpf's formats all name a register or a '$' "
                      "constant (parse_usdt_arg): an absolute address is none");
    if (loc.index)
      return rejected("libbpf before 1.7 has no base+index form (SIB came "
                      "in 1.7); calc_pt_regs_off gets 'b,%i,s' as one name");
    if (loc.constant_expression)
      return rejected("libbpf reads one number before '(' (sscanf %ld), "
                      "not an expression");
    if (loc.base && !libbpf_knows(*loc.base))
      return rejected("not in libbpf's register table (calc_pt_regs_off): "
                      "no ah..dh, xmm or r8l..r15l names");
    return accepted();
  }
  return accepted();
}

// ---- bcc
// ArgumentParser_x64::registers_: the legacy names without ah..dh, r8..r15
// with d/w/b, rip, xmm0..15.
bool bcc_knows(const RegisterInfo &r) {
  if (r.cls == RegisterClass::Zero || is_high_byte(r) || is_rex_l_name(r))
    return false;
  if (r.cls == RegisterClass::ProgramCounter)
    return r.name == "rip";
  return true;
}

Ruling bcc_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    // parse_expr: [NUM+]IDENT(%reg) or IDENT[+-NUM](%reg); assign_to_local
    // resolves IDENT in the binary only for a %rip base.
    if (loc.base && loc.base->name == "rip" &&
        loc.operand.find('@') == std::string::npos &&
        loc.operand.find(':') == std::string::npos) {
      // parse_identifier: [A-Za-z_][A-Za-z0-9_]*; a compiler's local static
      // (calls.0) stops it (measured: conformance/consumers/vectors).
      if (loc.operand.find('.') < loc.operand.find('('))
        return rejected("bcc's identifiers are [A-Za-z_][A-Za-z0-9_]* "
                        "(parse_identifier): a '.' in the symbol is a parse "
                        "error");
      return accepted("bcc resolves the symbol in the binary "
                      "(Argument::get_global_address)");
    }
    return rejected("bcc reads a symbol only as SYM(%rip) "
                    "(ArgumentParser_x64::parse_expr, assign_to_local)");
  case LocationKind::Immediate:
    return accepted();
  case LocationKind::Register:
  case LocationKind::Memory:
    if (is_absolute(loc))
      return rejected("bcc's x64 parser wants '$' before a constant or '%' "
                      "after a number (a bare number is a parse error; "
                      "measured)");
    if (loc.constant_expression)
      return rejected("bcc reads NUM or NUM+IDENT before '(' "
                      "(ArgumentParser_x64::parse_expr), not NUM+NUM");
    for (const auto *r : {base_of(loc), loc.index ? &*loc.index : nullptr})
      if (r && !bcc_knows(*r))
        return rejected("not in bcc's x64 register table "
                        "(ArgumentParser_x64::registers_): no ah..dh, "
                        "r8l..r15l or eip");
    if (loc.kind == LocationKind::Register && loc.base &&
        loc.base->cls == RegisterClass::Vector)
      return misread("bcc reads an xmm register as 0 "
                     "(Argument::assign_to_local)");
    return accepted();
  }
  return accepted();
}

// ---- perf
Ruling perf_operand(const ArgLocation &loc) {
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return rejected("perf skips it: only [+-]NUM(%reg) matches "
                    "(arch_sdt_arg_parse_op's regex)");
  case LocationKind::Immediate:
    return rejected("perf skips every '$' immediate (arch_sdt_arg_parse_op)");
  case LocationKind::Register:
  case LocationKind::Memory:
    if (is_absolute(loc))
      return rejected("perf skips it: its regex wants (%reg) after a number "
                      "(arch_sdt_arg_parse_op; measured)");
    if (loc.index)
      return rejected("perf skips an operand with ',' (arch_sdt_arg_parse_op)");
    if (loc.constant_expression)
      return rejected("perf skips it: only [+-]NUM(%reg) matches "
                      "(arch_sdt_arg_parse_op's regex)");
    if (loc.base && loc.base->cls == RegisterClass::Vector)
      return rejected("perf passes %xmmN to uprobe_events, whose fetch "
                      "arguments have no vector registers");
    if (loc.base && is_high_byte(*loc.base))
      return misread("perf renames %ah..%dh to %ax..%dx (sdt_reg_tbl): it "
                     "reads the low byte, not the high one");
    if (loc.base && loc.base->cls == RegisterClass::ProgramCounter &&
        loc.base->name != "rip" && loc.base->name != "ip")
      return rejected("perf passes %eip through unrenamed, and uprobe_events "
                      "knows the pc only as %ip (measured: "
                      "conformance/consumers/vectors)");
    return accepted();
  }
  return accepted();
}

// ---- stap
// Measured by conformance/consumers/grammar_check.py (stap 4.8 -p2 on each
// form of vectors/x86_64.txt and i386.txt): a bare number (an absolute
// address) is no operand on x86, a symbol is not resolved (SYM(%rip),
// SYM@GOTOFF(%ebx)), the SIB form, %xmmN and %eip elaborate; otherwise the
// measured common rule.
Ruling stap_operand(const ArgLocation &loc) {
  if (is_absolute(loc))
    return rejected("stap reads a bare number as no x86 operand (measured)");
  if (loc.kind == LocationKind::Symbolic)
    return rejected("stap does not resolve the symbol (measured: "
                    "'-4@calls.0(%rip)' and '8@sym(%rip)' fail -p2)");
  if (loc.kind == LocationKind::Memory && loc.index && !loc.constant_expression)
    return accepted("the SIB form elaborates (measured)");
  if (loc.base && (loc.base->cls == RegisterClass::Vector ||
                   loc.base->cls == RegisterClass::ProgramCounter))
    return accepted("elaborates (measured); the value read was not checked");
  return stap_measured(loc);
}

constexpr const char *kGdb =
    "gdb/stap-probe.c, gdb/i386-tdep.c (i386_stap_*), amd64-tdep.c names";
constexpr const char *kLibbpf =
    "libbpf src/usdt.c parse_usdt_arg, calc_pt_regs_off (x86)";
constexpr const char *kBcc = "bcc src/cc/usdt/usdt_args.cc ArgumentParser_x64";
constexpr const char *kPerf =
    "linux tools/perf/arch/x86/util/perf_regs.c arch_sdt_arg_parse_op";
constexpr const char *kStap = "SystemTap 4.8, measured (sdt-facts §8, "
                              "conformance/consumers/grammar_check.py)";

} // namespace

constinit const ConsumerGrammar kConsumerGrammar64 = {{
    {kGdb, nullptr, gdb_operand},
    {kLibbpf, nullptr, libbpf_operand},
    {kBcc, nullptr, bcc_operand},
    {kPerf, nullptr, perf_operand},
    {kStap, nullptr, stap_operand},
}};

constinit const ConsumerGrammar kConsumerGrammar32 = {{
    {kGdb, nullptr, gdb_operand_32},
    {kLibbpf, nullptr, libbpf_operand},
    {kBcc, nullptr, bcc_operand},
    {kPerf, nullptr, perf_operand},
    {kStap, nullptr, stap_operand},
}};

} // namespace xsdt::x86
