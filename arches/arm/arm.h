// What armhf and armel share, in the manner of FreeBSD's sys/x86: both
// descriptors name this directory (arch.json "shares") and build from it.
// ARM state's encodings (the trap, B), the core registers, the operand
// grammar and what the consumers read of it are the ISA's; the hint NOP,
// Thumb-2 and the VFP registers are armhf's alone (ARMv7), armel's ARMv5TE
// has none of them.
#ifndef XSDT_ARCHES_ARM_H
#define XSDT_ARCHES_ARM_H

#include "xsdt/arch_port.h"
#include "xsdt/word_jump.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace xsdt::arm {

// The trap udf #16 (e7f001f0), Linux's ARM breakpoint: the kernel sends
// SIGTRAP with the pc of the trap. It lies in the permanently undefined
// space of every ARM architecture version, ARMv5 too, where the assembler
// has no `udf` mnemonic.
inline constexpr unsigned char kTrap[] = {0xf0, 0x01, 0xf0, 0xe7};

// B (A1, condition AL): the offset counts from the branch + 8, a multiple
// of 4 in +-32 MiB, stored as imm24 = offset / 4.
inline constexpr WordJumpForm kJumpForm = {
    .pc_bias = 8,
    .alignment = 4,
    .offset_bits = 26,
    .fixed_mask = 0xff000000u,
    .fixed_bits = 0xea000000u,
    .place = [](std::uint32_t offset) { return offset >> 2; },
    .take = [](std::uint32_t word) { return (word & 0xffffffu) << 2; },
    .layout = WordLayout::LittleEndian,
};

// B replaces a site's word with one aligned store (no trap-first protocol).
inline constexpr JumpEncoding kJump = {encode_jump<kJumpForm>,
                                       decode_jump<kJumpForm>, false};

// r0..r15 with the aliases sb, sl, fp, ip, sp, lr and pc, DWARF 0..15.
void add_core_registers(std::vector<RegisterInfo> &table);

// What gdb and libbpf both read (the portable subset's arm rules).
std::optional<std::string> register_name_violation(const RegisterInfo &reg);
std::optional<std::string> memory_violation(const ArgLocation &loc);
std::optional<std::string> location_violation(const ArgLocation &loc);

// armel and armhf share EM_ARM and ELFCLASS32; their float ABI tells them
// apart. A linked file says it in e_flags (EF_ARM_ABI_FLOAT_SOFT or _HARD,
// set by GNU ld); an object only in its build attributes (.ARM.attributes,
// "aeabi": Tag_ABI_VFP_args = 1 where arguments go in VFP registers),
// which gcc, clang and GNU as write. A file with neither is no soft-float
// one: armhf's, Debian's default for 32-bit ARM.
inline constexpr const char *kAttributesSection = ".ARM.attributes";
bool soft_float_file(std::uint32_t e_flags,
                     std::span<const unsigned char> attributes);

inline constexpr const char *kWideRegisterValueReason =
    "a 64-bit value is in a register pair, and a spec names one register";

// The operand grammar (operands.cpp) and what gdb, libbpf, bcc, perf and
// SystemTap accept of it (consumers.cpp).
void parse_operand(detail::Lexer &lx, Arch arch, ArgLocation &loc);
extern const ConsumerGrammar kConsumerGrammar;

} // namespace xsdt::arm

#endif // XSDT_ARCHES_ARM_H
