// The portable subset (facts sheet §2): what gdb, libbpf, bcc and bpftrace
// all decode. An integer register named the way every consumer names it,
// such a register plus one constant displacement, or a plain immediate.
#include "xsdt/argspec.h"

namespace xsdt {
namespace {

bool is_x86(Arch arch) { return arch == Arch::X86_64 || arch == Arch::I386; }

std::string spelled(Arch arch, const std::string &name) {
  return is_x86(arch) ? "%" + name : name;
}

// Register spellings some consumer cannot read.
std::optional<std::string> name_violation(const RegisterInfo &reg, Arch arch) {
  std::string name = spelled(arch, reg.name);
  switch (reg.cls) {
  case RegisterClass::Vector:
    return "vector/floating-point register " + name +
           ": tracers read integer registers only";
  case RegisterClass::ProgramCounter:
    return "program counter " + name + " does not hold an argument";
  case RegisterClass::Zero:
    return "zero register " + name +
           ": libbpf cannot name it; an immediate 0 is portable";
  case RegisterClass::General:
    break;
  }
  if (is_x86(arch) && reg.bit_offset == 8)
    return "high-byte register " + name +
           ": libbpf and bcc cannot read bits 8..15";
  if (arch == Arch::X86_64 && reg.name.size() > 2 && reg.name[0] == 'r' &&
      reg.name.back() == 'l')
    return "byte register " + name + ": libbpf knows it only as %" +
           reg.full_name + "b";
  if (arch == Arch::AArch64) {
    if (reg.bit_width == 32)
      return "32-bit register name " + name +
             ": libbpf accepts only x registers and sp";
    if (reg.name != reg.full_name)
      return "register alias " + name + ": libbpf accepts only " +
             reg.full_name;
  }
  if (arch == Arch::RiscV64 && reg.name != reg.full_name)
    return "register name " + name + ": libbpf accepts only the ABI name " +
           reg.full_name;
  return std::nullopt;
}

std::optional<std::string> register_violation(const ArgLocation &loc,
                                              Arch arch) {
  const RegisterInfo &reg = *loc.base;
  if (auto why = name_violation(reg, arch))
    return why;
  if (loc.size * 8 > reg.bit_width) {
    if (arch == Arch::I386)
      return std::to_string(loc.size) +
             "-byte value in a register on i386: a register pair cannot be "
             "named by one register; pass it in memory";
    return std::to_string(loc.size) + "-byte value in " +
           std::to_string(reg.bit_width) + "-bit register " +
           spelled(arch, reg.name) + ": its upper bytes are undefined";
  }
  return std::nullopt;
}

std::optional<std::string> memory_violation(const ArgLocation &loc, Arch arch) {
  if (!loc.base)
    return "absolute address " + loc.operand +
           ": consumers read only register-relative memory";
  const RegisterInfo &base = *loc.base;
  if (base.cls == RegisterClass::ProgramCounter)
    return "PC-relative operand " + loc.operand +
           ": tracers take the probe address as the PC, not the next "
           "instruction's";
  if (auto why = name_violation(base, arch))
    return "base: " + *why;
  if (arch == Arch::X86_64 && base.bit_width == 32)
    return "32-bit address register " + spelled(arch, base.name) +
           " on x86-64: tracers add the full 64-bit register";
  if (loc.index) {
    if (is_x86(arch))
      return "index register " + spelled(arch, loc.index->name) + " in " +
             loc.operand + ": libbpf before 1.7 and bcc reject SIB forms";
    return "register offset " + loc.operand +
           ": libbpf and bcc reject index registers";
  }
  if (loc.hash_immediate)
    return "'#' before the offset in " + loc.operand +
           ": libbpf reads only bare offsets such as [sp, 16]";
  if (arch == Arch::RiscV64 && !loc.has_displacement)
    return loc.operand +
           " without an offset: libbpf requires off(reg), "
           "such as 0(" +
           base.name + ")";
  if (loc.constant_expression)
    return "displacement expression " + loc.operand +
           ": libbpf reads a single number";
  return std::nullopt;
}

std::optional<std::string> immediate_violation(const ArgLocation &loc,
                                               Arch arch) {
  if (loc.hash_immediate)
    return "'#' immediate " + loc.operand +
           ": libbpf reads only bare numbers such as 42";
  if (loc.constant_expression)
    return "immediate expression " + loc.operand +
           ": libbpf reads a single number";
  if (arch == Arch::I386 && loc.size == 8)
    return "8-byte immediate on i386: gdb truncates it to 32 bits; pass it "
           "in memory";
  return std::nullopt;
}

} // namespace

std::optional<std::string> portability_violation(const ArgLocation &loc,
                                                 Arch arch) {
  if (loc.is_float && loc.size != 4 && loc.size != 8)
    return std::to_string(loc.size) +
           "-byte floating-point value: only 4f and 8f are defined";
  switch (loc.kind) {
  case LocationKind::Symbolic:
    return loc.symbolic_reason;
  case LocationKind::Register:
    return register_violation(loc, arch);
  case LocationKind::Memory:
    return memory_violation(loc, arch);
  case LocationKind::Immediate:
    return immediate_violation(loc, arch);
  }
  return std::nullopt;
}

} // namespace xsdt
