// What mips64el (n64) and mipsel (o32) share, in the manner of FreeBSD's
// sys/x86: both descriptors name this directory (arch.json "shares") and
// build from it. The encodings, the register names every ABI has, the
// operand grammar (`$4`, `8($sp)`, `5`) and what the consumers read of it
// are the ISA's; the ABI (word size, argument registers, the names of $8..
// $15) is each arch's.
#ifndef XSDT_ARCHES_MIPS_H
#define XSDT_ARCHES_MIPS_H

#include "xsdt/arch_port.h"

#include <cstdint>
#include <vector>

namespace xsdt::mips {

// The site is `nop` (sll $0,$0,0: 00000000), as sys/sdt.h's, and the trap
// `break` (0000000d, code 0): Linux (do_bp) and qemu-user send SIGTRAP
// with the pc of the break for every code but the overflow and divide ones
// (6, 7: SIGFPE). They read the code back from the pc; a trap that another
// thread has put back to the NOP reads as code 0, SIGTRAP again. One
// aligned word: a store swaps NOP, trap and jump, as Linux patches its MIPS
// jump labels (arch/mips/kernel/jump_label.c, with flush_icache_range).
inline constexpr unsigned char kNop[] = {0x00, 0x00, 0x00, 0x00};
inline constexpr unsigned char kTrap[] = {0x0d, 0x00, 0x00, 0x00};

// `j target` (opcode 2): the target's bits 27..2 in the low 26 bits; bits
// 63..28 are those of the delay slot's address (site + 4), so j reaches
// the 256 MiB region the delay slot is in, not a distance. A target across
// a region's edge from the site takes `b` (beq $0,$0: 16-bit word offset
// from the delay slot, -128 KiB .. +128 KiB - 4) instead. The delay slot is
// the jump site's second NOP, never written.
bool encode_jump(std::uint64_t site, std::uint64_t target, unsigned char *out);
bool decode_jump(std::uint64_t site, const unsigned char *in,
                 std::uint64_t *target);

// $0..$31 (DWARF 0..31; $0 reads zero) with the names of every ABI: $zero,
// $at, $v0 $v1, $a0..$a3, $s0..$s7, $t8 $t9, $k0 $k1, $gp, $sp, $fp (and
// $s8), $ra; and $f0..$f31 (DWARF 32..63), `bits` wide.
void add_common_registers(std::vector<RegisterInfo> &table, int bits,
                          int fp_bits);
// An ABI's name for a register: n64's $a4..$a7 for $8..$11, o32's $t0..$t7.
void add_register_name(std::vector<RegisterInfo> &table, const char *name,
                       int number, int bits);

// The operand grammar (operands.cpp) and what gdb, libbpf, bcc, perf and
// SystemTap read of it (consumers.cpp).
void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::mips

#endif // XSDT_ARCHES_MIPS_H
