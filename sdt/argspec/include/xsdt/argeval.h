// xsdt argument evaluator: turns a parsed ArgLocation into a compact,
// allocation-free CompiledArg at enable time, and evaluates it against a
// saved register file and a memory reader at probe-hit time (in signal
// context), so nothing on the hit path parses, allocates or throws.
#ifndef XSDT_ARGEVAL_H
#define XSDT_ARGEVAL_H

#include "xsdt/argspec.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace xsdt {

enum class CompiledKind : std::uint8_t { Register, Memory, Immediate };

inline constexpr int kRegisterFileSize = 33;

// Registers indexed by the DWARF numbers of the arch's register table (its
// descriptor; each arches/<arch>/descriptor.cpp lists its numbering), which
// its machdep fill_registers() follows. 33 covers every arch so far; a port
// with more integer registers raises it.
struct RegisterFile {
  std::uint64_t regs[kRegisterFileSize];
};

// A plain POD so that a table of them can be read from a signal handler.
struct CompiledArg {
  CompiledKind kind = CompiledKind::Immediate;
  std::uint8_t size = 0; // 1, 2, 4 or 8 bytes
  bool is_signed = false;
  bool is_float = false;
  // Register and memory base: DWARF number (-1: none, an absolute address)
  // and the bits the named (sub-)register occupies in it, e.g. %ah = 8/8.
  std::int16_t base_reg = -1;
  std::uint8_t base_bit_offset = 0;
  std::uint8_t base_bit_width = 64;
  // Memory: optional index register times scale, plus displacement.
  std::int16_t index_reg = -1;
  std::uint8_t index_bit_width = 64;
  bool index_signed = false; // sign-extended from its width (aarch64 sxtw)
  std::uint8_t scale = 0;
  // Memory: the address wraps at 32 bits (i386, or an x86-64 operand that
  // names 32-bit registers, i.e. an address-size override).
  bool address32 = false;
  // Memory: the value's bytes are in big-endian order (the arch's).
  bool big_endian = false;
  std::int64_t displacement = 0;
  std::int64_t immediate = 0;
};

// Reads n bytes at addr into dst; false when the memory is not readable.
// Must not crash on a bad address (the runtime uses process_vm_readv or a
// pipe, both of which report EFAULT instead of faulting).
struct MemoryReader {
  bool (*read)(void *ctx, std::uint64_t addr, void *dst,
               std::size_t n) = nullptr;
  void *ctx = nullptr;
};

struct EvalValue {
  // `size` bytes sign- or zero-extended per the spec's sign; for float specs
  // the IEEE bits, zero-extended.
  std::uint64_t bits = 0;
  // The numeric value: the float converted, or the integer as a double.
  double as_double = 0;
};

// Symbolic, program-counter-relative, vector and unknown-register operands
// are errors: an in-process evaluator only has the integer register file.
Parsed<CompiledArg> compile_arg(const ArgLocation &loc, Arch arch);

// Extends the low `size` bytes of raw per sign/float, filling *out. Used by
// evaluate() and handy for values obtained elsewhere.
inline void extend_value(const CompiledArg &arg, std::uint64_t raw,
                         EvalValue *out) noexcept {
  const unsigned size = arg.size;
  std::uint64_t v =
      size >= 8 ? raw : raw & ((std::uint64_t{1} << (size * 8)) - 1);
  if (arg.is_float) {
    out->bits = v;
    if (size == 4) {
      const std::uint32_t b32 = static_cast<std::uint32_t>(v);
      float f;
      std::memcpy(&f, &b32, sizeof f);
      out->as_double = f;
    } else {
      double d;
      std::memcpy(&d, &v, sizeof d);
      out->as_double = d;
    }
    return;
  }
  if (arg.is_signed && size < 8) {
    const std::uint64_t sign = std::uint64_t{1} << (size * 8 - 1);
    v = (v ^ sign) - sign; // two's-complement sign extension
  }
  out->bits = v;
  out->as_double = arg.is_signed
                       ? static_cast<double>(static_cast<std::int64_t>(v))
                       : static_cast<double>(v);
}

// A memory operand's `size` bytes, in the arch's order, at the address its
// registers and displacement give; false when the read fails. Out of line:
// the one part of evaluate() that is not a few shifts.
bool read_memory_operand(const CompiledArg &arg, const RegisterFile &regs,
                         MemoryReader read, std::uint64_t *raw) noexcept;

// False (and *out untouched) when a memory read fails or arg is malformed.
// Register values follow gdb and libbpf: the named register's containing
// register is read, shifted by the sub-register's bit offset and truncated
// to the spec's size (so on i386 `-4@%ax` reads all of %eax, as gdb does).
// Inline, so that a hit decodes its register and constant arguments
// without a call each.
inline bool evaluate(const CompiledArg &arg, const RegisterFile &regs,
                     MemoryReader read, EvalValue *out) noexcept {
  if (arg.size != 1 && arg.size != 2 && arg.size != 4 && arg.size != 8)
    return false;
  if (arg.base_reg >= kRegisterFileSize || arg.index_reg >= kRegisterFileSize)
    return false;
  // Shifting a register by 64 or more is undefined; compile_arg never
  // makes such an offset, but the table may come from elsewhere.
  if (arg.base_bit_offset >= 64)
    return false;
  std::uint64_t raw = 0;
  switch (arg.kind) {
  case CompiledKind::Immediate:
    raw = static_cast<std::uint64_t>(arg.immediate);
    break;
  case CompiledKind::Register:
    if (arg.base_reg < 0)
      return false;
    // The containing register from the sub-register's offset, truncated to
    // the spec's size by extend_value (gdb's i386 widening, libbpf's bit
    // shifts).
    raw = regs.regs[arg.base_reg] >> arg.base_bit_offset;
    break;
  case CompiledKind::Memory:
    if (!read_memory_operand(arg, regs, read, &raw))
      return false;
    break;
  default:
    return false;
  }
  extend_value(arg, raw, out);
  return true;
}

} // namespace xsdt

#endif // XSDT_ARGEVAL_H
