// armel (ARMv5TE, soft-float EABI): what the generic code asks of this arch
// (xsdt/arch_port.h). The trap, B, the core registers, the operand grammar
// and the consumers' rules are 32-bit ARM's, shared with armhf
// (arches/arm). No VFP: floating-point values live in core registers or in
// memory, so the table has no s or d registers.
#include "arm/arm.h"

#include <elf.h>

#include <csignal>

namespace xsdt {
namespace {

// ARM state only (ARMv5TE's Thumb is Thumb-1, 2-byte instructions). The
// NOP is `mov r0, r0` (e1a00000), what the assembler writes for `nop`
// before ARMv6K's hint and what sys/sdt.h's sites hold too. It, the trap
// and B are single 4-byte aligned words, swapped with one store, as armhf's
// ARM state does. mov r0, r0 is not on ARMv7's list of instructions that
// may be replaced while another core executes them (ARM ARM A3.5.4; an
// armel program may run on such a core): neither is any instruction that
// Linux's uprobes replaces with this same trap in running multi-threaded
// programs, by the same single store.
constexpr unsigned char kNop[] = {0x00, 0x00, 0xa0, 0xe1};

constexpr SiteEncoding kSiteEncodings[] = {
    {kNop, arm::kTrap, "4-byte mov r0, r0"}};

const std::vector<RegisterInfo> &registers() {
  static const std::vector<RegisterInfo> table = [] {
    std::vector<RegisterInfo> t;
    arm::add_core_registers(t);
    return t;
  }();
  return table;
}

} // namespace
} // namespace xsdt

extern constinit const xsdt::ArchDescriptor xsdt_arch_armel = {
    .name = "armel",
    .elf_machine = EM_ARM,
    .elf64 = false,
    .word_bits = 32,
    .big_endian = false,
    .function_symbol_flag_bits = 0, // ARM code: no Thumb bit
    .narrow_registers_narrow_address = false,
    .site_encodings = xsdt::kSiteEncodings,
    .site_align = 4,
    .trap_pc_offset = 0, // udf #16 reports its own pc
    .trap_signal = SIGTRAP,
    // Linux's ARM undefined-instruction handler reads the word at the pc:
    // a trap another thread put back to the NOP before that read is no
    // breakpoint and raises SIGILL (as under qemu-user, which reads it too).
    .trap_race_signal = SIGILL,
    .encode_jump = xsdt::encode_jump<xsdt::arm::kJumpForm>,
    .decode_jump = xsdt::decode_jump<xsdt::arm::kJumpForm>,
    .encode_jump_nop = nullptr,     // the same NOP at every site
    .jump_needs_trap_first = false, // one aligned store
    .register_prefix = "",
    .registers = xsdt::registers,
    .parse_operand = xsdt::arm::parse_operand,
    .register_name_violation = xsdt::arm::register_name_violation,
    .memory_violation = xsdt::arm::memory_violation,
    .location_violation = xsdt::arm::location_violation,
    .wide_register_value_reason = xsdt::arm::kWideRegisterValueReason,
    .consumer_grammar = &xsdt::arm::kConsumerGrammar,
    .elf_attributes_section = xsdt::arm::kAttributesSection,
    .elf_claims =
        [](std::uint32_t f, std::span<const unsigned char> a) {
          return xsdt::arm::soft_float_file(f, a);
        },
};
