// The portable subset (facts sheet §2): what gdb, libbpf, bcc and bpftrace
// all decode. An integer register named the way every consumer names it,
// such a register plus one constant displacement, or a plain immediate.
// The rules here hold on every arch; an arch adds its own through its
// descriptor (register_name_violation, memory_violation).
#include "xsdt/arch_port.h"
#include "xsdt/argspec.h"

namespace xsdt {
namespace {

std::string spelled(Arch arch, const std::string &name) {
  return arch.descriptor().register_prefix + name;
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
  if (reg.bit_offset != 0)
    return "high-byte register " + name + ": libbpf and bcc cannot read bits " +
           std::to_string(reg.bit_offset) + ".." +
           std::to_string(reg.bit_offset + reg.bit_width - 1);
  if (auto hook = arch.descriptor().register_name_violation)
    return hook(reg);
  return std::nullopt;
}

std::optional<std::string> register_violation(const ArgLocation &loc,
                                              Arch arch) {
  const RegisterInfo &reg = *loc.base;
  if (auto why = name_violation(reg, arch))
    return why;
  if (loc.size * 8 > reg.bit_width) {
    if (const char *reason = arch.descriptor().wide_register_value_reason)
      return std::to_string(loc.size) + "-byte value in a register on " +
             std::string(arch_name(arch)) + ": " + reason;
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
  const ArchDescriptor &d = arch.descriptor();
  if (base.cls == RegisterClass::ProgramCounter)
    return "PC-relative operand " + loc.operand +
           ": tracers take the probe address as the PC, not the next "
           "instruction's";
  if (auto why = name_violation(base, arch))
    return "base: " + *why;
  if (base.bit_width < d.word_bits)
    return std::to_string(base.bit_width) + "-bit address register " +
           spelled(arch, base.name) + " on " + std::string(arch_name(arch)) +
           ": tracers add the full " + std::to_string(d.word_bits) +
           "-bit register";
  if (d.memory_violation)
    if (auto why = d.memory_violation(loc))
      return why;
  if (loc.index)
    return "index register " + spelled(arch, loc.index->name) + " in " +
           loc.operand + ": libbpf and bcc reject index registers";
  if (loc.hash_immediate)
    return "'#' before the offset in " + loc.operand +
           ": libbpf reads only bare offsets such as [sp, 16]";
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
  int word_bits = arch.descriptor().word_bits;
  if (loc.size * 8 > word_bits)
    return std::to_string(loc.size) + "-byte immediate on " +
           std::string(arch_name(arch)) + ": gdb truncates it to " +
           std::to_string(word_bits) + " bits; pass it in memory";
  return std::nullopt;
}

} // namespace

std::optional<std::string> portability_violation(const ArgLocation &loc,
                                                 Arch arch) {
  if (!loc.sized)
    return "no SIZE@ before " + loc.operand +
           " (the SDT v1 spelling): libbpf and bcc need the size; gdb "
           "reads a signed word";
  if (loc.is_float && loc.size != 4 && loc.size != 8)
    return std::to_string(loc.size) +
           "-byte floating-point value: only 4f and 8f are defined";
  if (auto hook = arch.descriptor().location_violation)
    if (auto why = hook(loc))
      return why;
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
