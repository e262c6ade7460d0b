// xsdt_argspec: parser for stapsdt argument specs (`[-]SIZE[f]@OPERAND`) on
// every arch of arches/, and the check that a parsed location lies in the
// portable subset every major consumer (gdb, libbpf, bcc, bpftrace) decodes:
// integer register, register + constant displacement, immediate. The
// generic spec layer is here; each arch's registers and operand grammar are
// in its descriptor (xsdt/arch_port.h).
//
// The parser accepts everything compilers print for inline-asm operands
// through sys/sdt.h, including forms no tracer can decode without symbol
// tables (`g(%rip)`, `[x0, #:lo12:sym]`); those come back as
// LocationKind::Symbolic with a reason, never as a misread location. So do
// the expressions gdb reads (`8@$3+($10-$8)`: the arch's operands joined by
// the assembler's infix operators, with parentheses), which only gdb
// evaluates.
// Errors are values (Parsed<T>); no exception leaves this API.
#ifndef XSDT_ARGSPEC_H
#define XSDT_ARGSPEC_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace xsdt {

struct ArchDescriptor; // xsdt/arch_port.h: what a port defines

// An architecture: a handle on its descriptor. The host tools find one by
// name through xsdt/arch_registry.h; libxsdt knows its own.
class Arch {
public:
  constexpr explicit Arch(const ArchDescriptor &descriptor) noexcept
      : descriptor_(&descriptor) {}
  const ArchDescriptor &descriptor() const noexcept { return *descriptor_; }
  bool operator==(const Arch &) const = default;

private:
  const ArchDescriptor *descriptor_;
};

// The canonical name: the arch's directory under arches/.
std::string_view arch_name(Arch arch);

enum class RegisterClass {
  General,        // an integer register a tracer reads from the register file
  ProgramCounter, // rip / eip: only meaningful as a base for PC-relative forms
  Vector,         // xmm, SIMD and floating-point registers
  Zero,           // hard-wired zero: aarch64 xzr/wzr, riscv x0
};

// One register name and the architectural register that holds it. A
// sub-register such as %ah maps to the full register (rax) plus the bits it
// names (offset 8, width 8), which is what a tracer needs to pull the value
// out of a saved register file.
struct RegisterInfo {
  std::string name;      // as written, without the '%' prefix
  std::string full_name; // the containing register: rax, eax (i386), x3, a0
  int dwarf = -1;        // DWARF number of the full register; -1 for none
  int bit_offset = 0;
  int bit_width = 0;
  RegisterClass cls = RegisterClass::General;
};

std::optional<RegisterInfo> lookup_register(Arch arch, std::string_view name);

enum class LocationKind { Register, Memory, Immediate, Symbolic };
std::string_view kind_name(LocationKind kind); // "register", "memory", ...

struct ArgLocation {
  LocationKind kind = LocationKind::Immediate;
  std::string spec;    // the whole spec as written, e.g. "-4@-28(%rsp)"
  std::string operand; // the part after '@'
  int size = 0;        // 1, 2, 4 or 8 bytes
  bool is_signed = false;
  // False for an operand without `SIZE@` (SDT v1 notes, still in old
  // binaries): gdb reads it as a signed word, which size and is_signed say.
  bool sized = true;
  bool is_float = false;

  // Register: base_reg names it. Memory: base_reg (may be empty for an
  // absolute address), optional index_reg * scale, plus displacement.
  // Symbolic: whatever registers the operand names, for information.
  std::string base_reg;
  std::string index_reg;
  std::optional<RegisterInfo> base;
  std::optional<RegisterInfo> index;
  std::int64_t displacement = 0;
  bool has_displacement = false; // `(a0)` and `[x1]` have none
  int scale = 0;                 // 0 when there is no index register
  // The index is sign-extended from its width before scaling (aarch64's
  // `sxtw`); otherwise a narrow index is zero-extended.
  bool index_signed = false;
  std::int64_t immediate = 0;

  // Spelling details that decide portability.
  bool hash_immediate = false;      // aarch64 `#42` or `[x0, #8]`
  bool constant_expression = false; // a displacement like `-4+16-16`

  std::string symbolic_reason; // kind == Symbolic: why it cannot be decoded
  // Symbolic because it is a gdb expression (operators, parentheses over
  // the arch's operands): gdb's own syntax, which other consumers lack.
  bool expression = false;
};

struct ParseError {
  std::string message;
  std::string token;        // the offending text
  std::size_t position = 0; // offset of token in the parsed string
  std::string spec;         // the spec it occurred in, when there is one
  // "bad token 'x' at position 3: message", or for an error at the end of
  // a spec (empty token) "at position 9, the end of '4@(%rax': message".
  std::string to_string() const;
};

// A value or a ParseError, in the manner of C++23 std::expected.
template <class T> class Parsed {
public:
  Parsed(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Parsed(ParseError error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T &value() const { return std::get<0>(v_); }
  T &value() { return std::get<0>(v_); }
  const T &operator*() const { return value(); }
  const T *operator->() const { return &value(); }
  const ParseError &error() const { return std::get<1>(v_); }

private:
  std::variant<T, ParseError> v_;
};

inline constexpr std::size_t kMaxArgs = 12;

// One spec parsed on its own; error positions are offsets into `spec`.
// `[-]SIZE[f]@OPERAND`, or an OPERAND alone (ArgLocation::sized).
Parsed<ArgLocation> parse_arg_spec(std::string_view spec, Arch arch);

// The specs of an args string: split on single spaces outside brackets
// (aarch64 writes `[sp, 16]`) and outside parentheses that close (gdb's
// expressions may have spaces inside them). Empty, or starting with ':', means
// no arguments. More than kMaxArgs, empty specs (double, leading or trailing
// spaces) are errors. The views point into `args`.
struct SpecText {
  std::string_view text;
  std::size_t position = 0; // offset in `args`
};
Parsed<std::vector<SpecText>> split_arg_specs(std::string_view args);

// split_arg_specs + parse_arg_spec; error positions are offsets into `args`.
Parsed<std::vector<ArgLocation>> parse_arg_specs(std::string_view args,
                                                 Arch arch);

// Why a parsed location is outside the portable subset, or nullopt when it
// is inside. Floating-point specs (`4f@`, `8f@`) are allowed: xsdt passes
// the IEEE bits in an integer register or in memory.
std::optional<std::string> portability_violation(const ArgLocation &loc,
                                                 Arch arch);

} // namespace xsdt

#endif // XSDT_ARGSPEC_H
