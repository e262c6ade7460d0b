// What an architecture port says to xsdt's generic code: one ArchDescriptor
// per arches/<arch>/, in the manner of gdb's gdbarch and LLVM's target
// registry. The generic code (the arg-spec parser and its portability check,
// the evaluator, libxsdt's patcher and trap handler, xsdt-inspect) asks the
// descriptor; it never switches on an arch.
//
// A port defines, in arches/<arch>/descriptor.cpp,
//
//   constinit const xsdt::ArchDescriptor xsdt_arch_<arch> = {...};
//
// with its ISA facts (ELF machine, site NOP, trap, jump encoding), its
// register table and operand grammar (the toolkit below), and the few
// portability rules that are its own. The host tools reach every arch
// through the registry (xsdt/arch_registry.h); libxsdt is built for one arch
// and reaches its own through machdep::arch().
//
// Everything here is C++20 without dependencies: it is compiled into the
// cross-built libxsdt too. Descriptors are constant-initialized, so they can
// be read before main and from a signal handler.
#ifndef XSDT_ARCH_PORT_H
#define XSDT_ARCH_PORT_H

#include "xsdt/argspec.h"
#include "xsdt/consumer_grammar.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace xsdt {

namespace detail {
class Lexer;
} // namespace detail

// One way a site can look while disabled, and the trap that trap mode
// writes over its first bytes (x86: one int3 byte; the rest of the NOP
// stays).
// The jump of an instruction set whose sites the arch's first encoding does
// not describe: armhf's ARM state beside Thumb-2, where one process runs
// both and each site is patched in its own. The fields mean what the
// descriptor's encode_jump, decode_jump and jump_needs_trap_first mean.
struct JumpEncoding {
  bool (*encode)(std::uint64_t site, std::uint64_t target, unsigned char *out);
  bool (*decode)(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target);
  bool needs_trap_first;
};

struct SiteEncoding {
  std::span<const unsigned char> nop;
  std::span<const unsigned char> trap;
  const char *what; // for messages: "5-byte nopl", "2-byte c.nop (sys/sdt.h)"
  // Set on xsdt's NOP of a second instruction set, whose SDT(9) jump sites
  // take this jump; null on the first encoding (the descriptor's jump) and
  // on other implementations' NOPs (no jump fits them).
  const JumpEncoding *jump = nullptr;
  // Why a probe note at this NOP endangers the program once a kernel
  // tracer attaches (x86-64's bare 5-byte NOP: Linux 6.18 turns the uprobe
  // into a call that writes into the red zone); null when it does not.
  const char *hazard = nullptr;
};

struct ArchDescriptor {
  // The arch's directory name under arches/, which is also its canonical
  // name. Aliases ("x86-64", "arm64") come from arch.json, for the host
  // tools' registry.
  const char *name;

  // ---- ELF: which files are this arch's.
  std::uint16_t elf_machine; // EM_*
  bool elf64;                // ELFCLASS64
  // Bits of an address and of a general register: 32 or 64. An address
  // computed from registers wraps at this width.
  int word_bits;
  // Byte order of the arch's data: memory operands, the notes' addresses
  // and the SDT records are read in it (s390x is big-endian).
  bool big_endian;
  // Bits of a function symbol's value that are no address bits: the ARM
  // ELF ABI sets bit 0 for Thumb code (armhf: 1); 0 elsewhere.
  std::uint64_t function_symbol_flag_bits;
  // An address computed from 32-bit registers wraps at 32 bits even on a
  // 64-bit arch (x86-64's address-size override); otherwise a narrow index
  // is extended first (aarch64's sxtw).
  bool narrow_registers_narrow_address;

  // ---- Sites. site_encodings[0] is xsdt's own: the one patch-width NOP
  // that every SDT site holds, which jump mode replaces whole, and every
  // USDT site too unless usdt_site names another. The others are what
  // other implementations leave at their sites (sys/sdt.h's 1-byte x86 nop,
  // riscv's 2-byte c.nop): too small for a jump, but a trap fits, so trap
  // mode accepts them and the inspector names them.
  std::span<const SiteEncoding> site_encodings;
  std::size_t site_align;     // alignment every site must have
  std::size_t trap_pc_offset; // the pc a trap reports, minus its site
  // The signal a trap raises in an untraced process: SIGTRAP, or SIGILL
  // where the trap is an illegal instruction to the kernel (s390x's 0x0001,
  // which Linux turns into SIGTRAP only under ptrace).
  int trap_signal;
  // The signal a thread gets when its trap was replaced by another thread
  // before the kernel read it to tell which trap it was: armhf's kernel
  // (and QEMU) re-read an undefined instruction at the pc, and send SIGILL
  // when they find the NOP back. The trap handler takes it too, so that the
  // thread runs the site again. 0 where the exception names the trap itself.
  int trap_race_signal;

  // ---- SDT(9) jump sites: the jump that replaces the NOP (site_encodings
  // [0].nop.size() bytes). encode_jump is false when the target is out of
  // reach; decode_jump false when the bytes are not this arch's jump.
  bool (*encode_jump)(std::uint64_t site, std::uint64_t target,
                      unsigned char *out);
  bool (*decode_jump)(std::uint64_t site, const unsigned char *in,
                      std::uint64_t *target);
  // The NOP a jump site holds while disabled, when it depends on the site:
  // s390x's `brcl 0,target` names the jump's target already, so that
  // enabling flips the condition mask alone (one byte), as Linux's jump
  // labels do. Null: site_encodings[0].nop at every site.
  bool (*encode_jump_nop)(std::uint64_t site, std::uint64_t target,
                          unsigned char *out);
  // The jump is wider than one atomic store with respect to instruction
  // fetch (x86's 5 bytes): the patcher writes a trap over the head first.
  bool jump_needs_trap_first;

  // ---- Argument specs.
  // How register names are written in specs and messages: "%" (AT&T) or "".
  const char *register_prefix;
  // Every register name the compilers print, with the DWARF number of its
  // full register (the numbering of argeval.h's RegisterFile).
  const std::vector<RegisterInfo> &(*registers)();
  // The operand grammar: fills the location fields of loc from the operand
  // under lx (the toolkit below), or fails with detail::fail().
  void (*parse_operand)(detail::Lexer &lx, Arch arch, ArgLocation &loc);
  // The portability rules that are this arch's own (portability.cpp has
  // the generic ones); each returns why a location is outside the portable
  // subset, or nullopt. Either may be null.
  //   register_name_violation: register spellings some consumer cannot
  //     read, beyond vector, pc, zero and high-byte registers;
  //   memory_violation: memory forms some consumer cannot read, checked
  //     after the base register and before the generic rules (an index
  //     register, '#', an expression).
  std::optional<std::string> (*register_name_violation)(
      const RegisterInfo &reg);
  std::optional<std::string> (*memory_violation)(const ArgLocation &loc);
  // Rules of this arch for a location of any kind, checked before the
  // generic ones (armhf: a bare register must be r0..r10, an immediate
  // needs its '#'). May be null.
  std::optional<std::string> (*location_violation)(const ArgLocation &loc);
  // Why a value wider than a register cannot be described on this arch, for
  // the portability message; null for the generic "upper bytes" reason.
  const char *wide_register_value_reason;
  // What gdb, libbpf, bcc, perf and SystemTap accept of this arch's specs,
  // as their parsers define it (xsdt/consumer_grammar.h); read by
  // xsdt-inspect. Null: not described.
  const ConsumerGrammar *consumer_grammar = nullptr;
  // The NOP xsdt's USDT notes point at, when it is not site_encodings[0]:
  // one of site_encodings, which trap mode patches (x86-64's `nop; nop10`,
  // on which no kernel's uprobe writes into the red zone; docs/design.md).
  // Null: site_encodings[0].
  const SiteEncoding *usdt_site = nullptr;

  // Set where another arch has the same ELF machine and class (armel and
  // armhf, told apart by their float ABI): whether a file is this arch's,
  // from its header's e_flags and the contents of its section named
  // elf_attributes_section (empty where it has none). Asked by the
  // registry's arch_for_elf only when the machine and class are ambiguous.
  const char *elf_attributes_section = nullptr;
  bool (*elf_claims)(std::uint32_t e_flags,
                     std::span<const unsigned char> attributes) = nullptr;

  // The NOP the jump site at `site`, whose jump goes to `target`, holds while
  // disabled (site_encodings[0].nop.size() bytes): encode_jump_nop's, or
  // the one NOP. False when the target is out of reach.
  // The NOP of xsdt's USDT sites.
  const SiteEncoding &usdt_site_encoding() const {
    return usdt_site ? *usdt_site : site_encodings[0];
  }

  // Where the function whose symbol has `value` starts.
  std::uint64_t function_start(std::uint64_t value) const {
    return value & ~function_symbol_flag_bits;
  }

  bool jump_site_nop(std::uint64_t site, std::uint64_t target,
                     unsigned char *out) const {
    return jump_site_nop(site_encodings[0], site, target, out);
  }

  // ---- Jump sites of a given encoding (site_encodings[0], or one with a
  // jump of its own): the same questions, asked of that instruction set.
  bool takes_jumps(const SiteEncoding &e) const {
    return &e == &site_encodings[0] || e.jump;
  }
  bool jump_site_nop(const SiteEncoding &e, std::uint64_t site,
                     std::uint64_t target, unsigned char *out) const {
    if (encode_jump_nop && &e == &site_encodings[0])
      return encode_jump_nop(site, target, out);
    for (std::size_t i = 0; i < e.nop.size(); ++i)
      out[i] = e.nop[i];
    return true;
  }
  bool encode_jump_of(const SiteEncoding &e, std::uint64_t site,
                      std::uint64_t target, unsigned char *out) const {
    return e.jump ? e.jump->encode(site, target, out)
                  : encode_jump(site, target, out);
  }
  bool decode_jump_of(const SiteEncoding &e, std::uint64_t site,
                      const unsigned char *in, std::uint64_t *target) const {
    return e.jump ? e.jump->decode(site, in, target)
                  : decode_jump(site, in, target);
  }
  bool jump_needs_trap_first_of(const SiteEncoding &e) const {
    return e.jump ? e.jump->needs_trap_first : jump_needs_trap_first;
  }
  // Whether any jump site of the arch needs the trap-first protocol.
  bool any_jump_needs_trap_first() const {
    for (const SiteEncoding &e : site_encodings)
      if (takes_jumps(e) && jump_needs_trap_first_of(e))
        return true;
    return false;
  }
};

// The toolkit the operand grammars are written with. Parsing failures
// unwind with detail::Failure, caught at the public entry points, so a
// grammar reads straight through.
namespace detail {

struct Failure {
  ParseError error;
};

[[noreturn]] void fail(std::string message, std::string_view token,
                       std::size_t position);

bool is_word_char(char c);   // [A-Za-z0-9_.$]
bool is_ident_start(char c); // [A-Za-z_.]
bool is_digit(char c);

// A cursor over one operand.
class Lexer {
public:
  // `origin` is the offset of `text` in the string the caller reports
  // positions against.
  Lexer(std::string_view text, std::size_t origin)
      : text_(text), origin_(origin) {}

  bool done() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::size_t at() const { return origin_ + pos_; } // absolute position
  std::size_t mark() const { return pos_; }
  void reset(std::size_t mark) { pos_ = mark; }
  std::string_view text() const { return text_; }

  bool eat(char c);
  void skip_spaces();
  // The maximal run of word characters (possibly empty).
  std::string_view take_word();
  // Fails unless the next character is `c`; `what` says what was expected.
  void expect(char c, std::string_view what);
  void expect_end();
  // Fails naming the word (or character) at the cursor.
  [[noreturn]] void fail_here(std::string message) const;

private:
  std::string_view text_;
  std::size_t origin_;
  std::size_t pos_ = 0;
};

// An unsigned literal: "0", decimal without leading zeros (gas would read
// them as octal), or 0x hex; at most 2^64 - 1. `position` locates `word`.
std::uint64_t parse_unsigned(std::string_view word, std::size_t position);

// An optionally signed literal ("-28", "+8", "0x10").
std::int64_t lex_signed_number(Lexer &lx);

// A displacement or immediate: term (('+' | '-') term)*, with an optional
// leading sign; a term is a literal or a symbol with an optional @RELOC
// suffix (sym, .LC0, g@GOTOFF). Stops at the first character that cannot
// continue it.
struct Expression {
  std::int64_t value = 0; // the sum of the literal terms
  int terms = 0;
  bool symbolic = false;
};
Expression lex_expression(Lexer &lx);

// Looks `name` up and fails, naming it, when `arch` has no such register.
RegisterInfo require_register(Arch arch, std::string_view name,
                              std::size_t position);

// Fails, naming the register at `position`, when reg cannot address
// memory: a floating-point or vector register.
void require_address_register(const RegisterInfo &reg, std::size_t position);

// The whole operand under lx in the arch's grammar (its descriptor's
// parse_operand) or, when that grammar refuses it, as a gdb expression of
// the arch's operands (`$3+($10-$8)`), which comes back Symbolic
// (expression.cpp).
void parse_operand_or_expression(Lexer &lx, Arch arch, ArgLocation &loc);

void set_base(ArgLocation &loc, const RegisterInfo &reg);
void set_index(ArgLocation &loc, const RegisterInfo &reg, int scale);
void mark_symbolic(ArgLocation &loc, std::string_view why);

// Appends one register to a table under construction.
void add_register(std::vector<RegisterInfo> &table, std::string name,
                  std::string full_name, int dwarf, int bit_offset,
                  int bit_width, RegisterClass cls = RegisterClass::General);

} // namespace detail
} // namespace xsdt

#endif // XSDT_ARCH_PORT_H
