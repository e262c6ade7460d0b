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

// xsdt's site, `nopl 0(%eax,%eax,1)` (i686+), and sys/sdt.h's 1-byte `nop`;
// trap mode writes int3 over byte 0 of either (one atomic byte store).
extern const SiteEncoding kSiteEncodings[2];

// The SIGTRAP of an int3 reports the pc after it.
inline constexpr std::size_t kTrapPcOffset = 1;

// `e9 rel32` over the whole 5-byte NOP, relative to the end of the jump;
// false when the target is out of rel32 reach or the bytes are not one.
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
