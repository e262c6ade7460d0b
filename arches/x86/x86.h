// What x86_64 and i386 share, in the manner of FreeBSD's sys/x86: both
// descriptors name this directory (arch.json "shares") and build from it.
// The instruction encodings do not depend on the operating mode; the
// operand grammar (AT&T) and the legacy registers differ only in what the
// arch's word size allows.
#ifndef XSDT_ARCHES_X86_H
#define XSDT_ARCHES_X86_H

#include "xsdt/arch_port.h"

#include <cstdint>
#include <span>
#include <vector>

namespace xsdt::x86 {

// The NOPs both modes know, for the descriptors' site tables: the 5-byte
// `nopl 0(%eax,%eax,1)` (i686+) and sys/sdt.h's 1-byte `nop`; and the trap,
// int3, which trap mode writes over byte 0 of any site. A single-byte store
// is atomic with respect to instruction fetch, so a thread racing through
// the site sees either the whole NOP or the trap, and the other bytes never
// execute (the trap handler resumes after them).
inline constexpr unsigned char kNop5[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};
inline constexpr unsigned char kNop1[] = {0x90};
inline constexpr unsigned char kInt3[] = {0xcc};
inline constexpr const char *kNop5What = "5-byte nopl";
inline constexpr const char *kNop1What = "1-byte nop (sys/sdt.h)";

// The SIGTRAP of an int3 reports the pc after it.
inline constexpr std::size_t kTrapPcOffset = 1;

// `e9 rel32` over the first 5 bytes of a site, relative to the end of the
// jump; false when the target is out of rel32 reach or the bytes are not
// one.
inline constexpr std::size_t kJumpSize = 5;
bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out);
bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target);

// The AT&T operand grammar of both modes; the arch's word size decides
// what addresses may be built from (32-bit registers and no %rip on i386).
void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);

// SIB forms (an index register), which libbpf before 1.7 and bcc reject.
std::optional<std::string> memory_violation(const ArgLocation &loc);

// What gdb, libbpf, bcc, perf and SystemTap accept of AT&T specs
// (consumers.cpp): x86_64's, and i386's, where gdb truncates immediates.
extern const ConsumerGrammar kConsumerGrammar64;
extern const ConsumerGrammar kConsumerGrammar32;

// rax..rdi, rsp and rbp (eax.. on i386) with their narrower names, in the
// arch's DWARF numbering.
void add_legacy_registers(std::vector<RegisterInfo> &table, int word_bits);

} // namespace xsdt::x86

#endif // XSDT_ARCHES_X86_H
