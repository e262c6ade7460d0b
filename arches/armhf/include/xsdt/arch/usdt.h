/* xsdt backend: 32-bit ARM, hard-float (armhf), in Thumb-2 (Debian's
 * default) or ARM state (-marm). Included by <xsdt/usdt.h>; not for direct
 * use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

#if defined(__thumb__) && !defined(__thumb2__)
#error                                                                         \
    "xsdt: armhf needs Thumb-2 or ARM code: Thumb-1 has no 4-byte instruction to patch"
#endif

#define XSDT_ARCH_ADDR ".4byte"

/* Registers are too few for 12 operands, and a 64-bit value would sit in a
 * register pair that a spec cannot name, so the generic header splits the
 * arguments (as on i386): the first ones of 32 bits or less are register
 * operands or #constants; 8-byte and floating-point values and the
 * arguments past the register budget are copied to slots of one local
 * array, named off one base register as [BASE, #OFFSET] (an "m" operand of
 * its own per slot would take a register each with clang, and with gcc at
 * -O0). The base must be a register that gdb and libbpf both read inside
 * brackets: gdb reads fp as its frame base $fp, not r11 (lit-tests/consumers
 * measured [fp, #0] read 0), clang's r12 is read by gdb but not by libbpf,
 * and the assembler writes r11 as fp and r12 as ip anyway. */
/* A bare register is read by gdb as rN only ("Operator `i' not recognized"
 * for ip) and by libbpf as r0..r10, fp, ip, sp or lr: r0..r10 is what both
 * read, and the register operands must stay there. */
#if defined(__thumb2__)
/* A 4-byte aligned `nop.w` (f3af 8000): b.w and the trap udf #1 replace it
 * by the trap-first protocol (libxsdt). The alignment may put a 2-byte
 * `nop` before it. sys/sdt.h's site is the 2-byte `nop`, too small. */
#define XSDT_ARCH_SITE_ALIGN ".balign 4"
#define XSDT_ARCH_SITE_NOP "nop.w"
/* Thumb state: already so inside the functions that hold sites, but a
 * top-level asm starts in ARM state. */
#define XSDT_ARCH_SITE_ENTER ".thumb"
#define XSDT_ARCH_SITE_LEAVE ""
/* "l" is a low register, r0..r7. r7 is Thumb's frame pointer and the slot
 * base takes one more: six low registers are left for values. */
#define XSDT_ARCH_ARG_AREA_REGS 6
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nl"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%[a" #n "]\"\n"
/* The base is a low register as well: the value operands and the base
 * then share r0..r6, which they always fit. */
#define XSDT_ARCH_ARG_SLOT_BASE_CONSTRAINT "l"
#define XSDT_ARCH_ARG_SLOT_BASE_ASM(offset) ".ascii \"[%[b], #" offset "]\"\n"
#else
/* ARM state: every instruction is 4 bytes and aligned, and the `nop` hint
 * (e320f000) is replaced by a B or the trap udf #16 with one store. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_SITE_ENTER ".arm"
#define XSDT_ARCH_SITE_LEAVE ""
/* No constraint letter of gcc and clang both means r0..r10 in ARM state
 * ("l" is every register there). So the site clobbers ip and lr, which the
 * compiler then keeps out of the operands (ip is scratch; lr costs a saved
 * lr in a leaf function), and r10. fp (r11) cannot be clobbered where it is
 * the frame pointer (gcc: "fp cannot be used in asm here"), and is handed
 * out elsewhere: an argument there is copied into r10 before the site, and
 * the spec names r10. gcc prints r11 as fp, clang as r11. */
#define XSDT_ARCH_ARG_AREA_REGS 6
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nr"
#define XSDT_ARCH_SITE_CLOBBERS "r10", "r12", "lr"
#define XSDT_ARCH_ARG_CODE_ASM(n)                                              \
  ".irp r,fp,r11\n.ifc %[a" #n "],\\r\nmov r10,\\r\n.endif\n.endr\n"
#define XSDT_ARCH_ARG_ASM(n)                                                   \
  ".ifc %[a" #n "],fp\n.ascii \"r10\"\n.else\n"                                \
  ".ifc %[a" #n "],r11\n.ascii \"r10\"\n.else\n"                               \
  ".ascii \"%[a" #n "]\"\n.endif\n.endif\n"
/* The base may be any register, r11 too, and no constraint keeps it out:
 * it is copied into ip (one instruction, at sites with slots only; a
 * constant 0 stands for the base where there are none). r10 may hold a
 * value operand copied out of r11. */
#define XSDT_ARCH_ARG_SLOT_BASE_CODE_ASM ".ifnc %[b],#0\nmov ip,%[b]\n.endif\n"
#define XSDT_ARCH_ARG_SLOT_BASE_ASM(offset) ".ascii \"[ip, #" offset "]\"\n"
#endif

#endif
