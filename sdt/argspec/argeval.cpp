// The evaluator. compile_arg() does every check once, at enable time, so
// that evaluate() (argeval.h, inline in the hit paths) is a handful of
// shifts and at most one memory read, the one part kept here.
#include "xsdt/argeval.h"
#include "xsdt/arch_port.h"

#include <cstring>
#include <string>

namespace xsdt {
namespace {

ParseError compile_error(const ArgLocation &loc, std::string message) {
  ParseError e;
  e.message = std::move(message);
  e.token = loc.operand;
  e.position = loc.spec.size() - loc.operand.size();
  e.spec = loc.spec;
  return e;
}

// Checks one register of an operand. Returns an empty string when it is
// usable, else the reason.
std::string register_problem(const RegisterInfo &reg) {
  switch (reg.cls) {
  case RegisterClass::General:
    break;
  case RegisterClass::ProgramCounter:
    // The pc at a hit is the trap's, not that of the instruction the
    // compiler meant; such operands only come from sym(%rip) anyway.
    return "program-counter-relative operand %" + reg.name +
           " is not supported";
  case RegisterClass::Vector:
    return "vector register " + reg.name + " is not in the register file";
  case RegisterClass::Zero:
    return {}; // handled by the callers: reads as 0
  }
  if (reg.dwarf < 0 || reg.dwarf >= kRegisterFileSize)
    return "register " + reg.name + " has no register-file slot";
  if (reg.bit_offset < 0 || reg.bit_width <= 0 ||
      reg.bit_offset + reg.bit_width > 64)
    return "register " + reg.name + " has an unusable bit range";
  return {};
}

std::uint64_t register_field(const RegisterFile &regs, int reg,
                             unsigned bit_offset, unsigned bit_width) {
  if (reg < 0)
    return 0; // a zero register or no base
  std::uint64_t v = regs.regs[reg] >> bit_offset;
  return bit_width >= 64 ? v : v & ((std::uint64_t{1} << bit_width) - 1);
}

} // namespace

Parsed<CompiledArg> compile_arg(const ArgLocation &loc, Arch arch) {
  CompiledArg c;
  if (loc.size != 1 && loc.size != 2 && loc.size != 4 && loc.size != 8)
    return compile_error(loc, "argument size must be 1, 2, 4 or 8");
  if (loc.is_float && loc.size != 4 && loc.size != 8)
    return compile_error(loc, "a floating-point argument must be 4 or 8 bytes");
  c.size = static_cast<std::uint8_t>(loc.size);
  c.is_signed = loc.is_signed && !loc.is_float;
  c.is_float = loc.is_float;

  switch (loc.kind) {
  case LocationKind::Symbolic:
    return compile_error(loc,
                         "needs symbol resolution: " + loc.symbolic_reason);
  case LocationKind::Immediate:
    c.kind = CompiledKind::Immediate;
    c.immediate = loc.immediate;
    return c;
  case LocationKind::Register: {
    if (!loc.base)
      return compile_error(loc, "register operand without a register");
    const RegisterInfo &r = *loc.base;
    if (std::string why = register_problem(r); !why.empty())
      return compile_error(loc, why);
    if (r.cls == RegisterClass::Zero) {
      // xzr / riscv zero: the value is a constant 0.
      c.kind = CompiledKind::Immediate;
      c.immediate = 0;
      return c;
    }
    c.kind = CompiledKind::Register;
    c.base_reg = static_cast<std::int16_t>(r.dwarf);
    c.base_bit_offset = static_cast<std::uint8_t>(r.bit_offset);
    c.base_bit_width = static_cast<std::uint8_t>(r.bit_width);
    return c;
  }
  case LocationKind::Memory: {
    c.kind = CompiledKind::Memory;
    c.displacement = loc.displacement;
    // Addresses wrap at the arch's word size, or at 32 bits when the
    // operand names 32-bit registers on a 64-bit arch (x86-64's
    // address-size override).
    c.address32 = arch.descriptor().word_bits == 32;
    c.big_endian = arch.descriptor().big_endian;
    const bool narrow_address =
        arch.descriptor().narrow_registers_narrow_address;
    if (loc.base) {
      const RegisterInfo &r = *loc.base;
      if (std::string why = register_problem(r); !why.empty())
        return compile_error(loc, why);
      if (r.cls != RegisterClass::Zero) {
        c.base_reg = static_cast<std::int16_t>(r.dwarf);
        c.base_bit_offset = static_cast<std::uint8_t>(r.bit_offset);
        c.base_bit_width = static_cast<std::uint8_t>(r.bit_width);
        if (narrow_address && r.bit_width == 32 && r.bit_offset == 0)
          c.address32 = true;
        else if (r.bit_width < 32 || r.bit_offset != 0)
          return compile_error(loc, "register " + r.name +
                                        " cannot hold an address");
      }
    }
    if (loc.index) {
      const RegisterInfo &r = *loc.index;
      if (std::string why = register_problem(r); !why.empty())
        return compile_error(loc, why);
      if (loc.scale != 1 && loc.scale != 2 && loc.scale != 4 && loc.scale != 8)
        return compile_error(loc, "index scale must be 1, 2, 4 or 8");
      if (r.cls != RegisterClass::Zero) {
        if (r.bit_width < 32 || r.bit_offset != 0)
          return compile_error(loc,
                               "register " + r.name + " cannot be an index");
        c.index_reg = static_cast<std::int16_t>(r.dwarf);
        c.index_bit_width = static_cast<std::uint8_t>(r.bit_width);
        c.index_signed = loc.index_signed;
        c.scale = static_cast<std::uint8_t>(loc.scale);
        if (narrow_address && r.bit_width == 32)
          c.address32 = true;
      }
    }
    return c;
  }
  }
  return compile_error(loc, "unknown location kind");
}

bool read_memory_operand(const CompiledArg &arg, const RegisterFile &regs,
                         MemoryReader read, std::uint64_t *raw) noexcept {
  std::uint64_t addr = register_field(regs, arg.base_reg, arg.base_bit_offset,
                                      arg.base_bit_width) +
                       static_cast<std::uint64_t>(arg.displacement);
  if (arg.index_reg >= 0) {
    std::uint64_t index =
        register_field(regs, arg.index_reg, 0, arg.index_bit_width);
    // `[x1, w2, sxtw #2]`: a negative w2 moves the address down.
    if (arg.index_signed && arg.index_bit_width > 0 &&
        arg.index_bit_width < 64) {
      const std::uint64_t sign = std::uint64_t{1} << (arg.index_bit_width - 1);
      index = (index ^ sign) - sign;
    }
    addr += index * arg.scale;
  }
  if (arg.address32)
    addr &= 0xffffffffu;
  if (!read.read)
    return false;
  unsigned char buf[8] = {};
  if (!read.read(read.ctx, addr, buf, arg.size))
    return false;
  std::uint64_t value = 0;
  for (unsigned i = 0; i < arg.size; ++i) {
    const unsigned significance = arg.big_endian ? arg.size - 1 - i : i;
    value |= std::uint64_t{buf[i]} << (8 * significance);
  }
  *raw = value;
  return true;
}

} // namespace xsdt
