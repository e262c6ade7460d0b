// xsdt argument evaluator: turns a parsed ArgLocation into a compact,
// allocation-free CompiledArg at enable time, and evaluates it against a
// saved register file and a memory reader at probe-hit time (in signal
// context), so nothing on the hit path parses, allocates or throws.
#ifndef XSDT_ARGEVAL_H
#define XSDT_ARGEVAL_H

#include "xsdt/argspec.h"

#include <cstddef>
#include <cstdint>

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
void extend_value(const CompiledArg &arg, std::uint64_t raw,
                  EvalValue *out) noexcept;

// False (and *out untouched) when a memory read fails or arg is malformed.
// Register values follow gdb and libbpf: the named register's containing
// register is read, shifted by the sub-register's bit offset and truncated
// to the spec's size (so on i386 `-4@%ax` reads all of %eax, as gdb does).
bool evaluate(const CompiledArg &arg, const RegisterFile &regs,
              MemoryReader read, EvalValue *out) noexcept;

} // namespace xsdt

#endif // XSDT_ARGEVAL_H
