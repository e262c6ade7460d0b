/* xsdt backend: 32-bit ARM, soft-float EABI (armel, ARMv5TE), in ARM state.
 * Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

#if defined(__thumb__)
#error                                                                         \
    "xsdt: armel needs ARM code: its Thumb-1 has no 4-byte instruction to patch"
#endif

#define XSDT_ARCH_ADDR ".4byte"

/* Every instruction is 4 bytes and aligned. Before ARMv6K there is no `nop`
 * hint: the assembler writes `nop` as `mov r0, r0` (e1a00000), which a B or
 * the trap udf #16 replaces with one store (libxsdt). */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_SITE_ENTER ".arm"
#define XSDT_ARCH_SITE_LEAVE ""

/* As armhf's ARM state: registers are too few for 12 operands, and a
 * 64-bit value (a long long, and a double in the soft-float ABI) would sit
 * in a register pair that a spec cannot name, so the generic header hands
 * the first arguments of 32 bits or less over as register operands or
 * #constants and copies the others (8-byte and floating-point values, the
 * arguments past the register budget) to slots of one local array, named
 * [ip, #OFFSET]. A bare register is read by gdb as rN only and by libbpf as
 * r0..r10 and the aliases: the register operands stay in r0..r10. No
 * constraint letter means r0..r10 in ARM state, so the site clobbers ip,
 * lr and r10; an argument the compiler hands out in fp (r11, which cannot
 * be clobbered where it is the frame pointer) is copied into r10 before
 * the site, and the spec names r10. gcc prints r11 as fp, clang as r11. */
#define XSDT_ARCH_ARG_AREA_REGS 6
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nr"
#define XSDT_ARCH_SITE_CLOBBERS "r10", "r12", "lr"
#define XSDT_ARCH_ARG_CODE_ASM(n)                                              \
  ".irp r,fp,r11\n.ifc %[a" #n "],\\r\nmov r10,\\r\n.endif\n.endr\n"
#define XSDT_ARCH_ARG_ASM(n)                                                   \
  ".ifc %[a" #n "],fp\n.ascii \"r10\"\n.else\n"                                \
  ".ifc %[a" #n "],r11\n.ascii \"r10\"\n.else\n"                               \
  ".ascii \"%[a" #n "]\"\n.endif\n.endif\n"
/* The base may be any register, r11 too: it is copied into ip (one
 * instruction, at sites with slots only; a constant 0 stands for the base
 * where there are none). */
#define XSDT_ARCH_ARG_SLOT_BASE_CODE_ASM ".ifnc %[b],#0\nmov ip,%[b]\n.endif\n"
#define XSDT_ARCH_ARG_SLOT_BASE_ASM(offset) ".ascii \"[ip, #" offset "]\"\n"

#endif
