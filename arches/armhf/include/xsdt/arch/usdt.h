/* xsdt backend: 32-bit ARM, hard-float (armhf), Thumb-2. Included by
 * <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* Debian's armhf is Thumb-2 (gcc's default; clang needs -mthumb). ARM-mode
 * code (-marm) needs its own site, trap and jump, which this port does not
 * have yet; Thumb-1 has no 4-byte instructions at all. */
#if !defined(__thumb2__)
#error "xsdt: armhf supports Thumb-2 code only so far: build with -mthumb (ARM mode, -marm, is not ported yet)"
#endif

/* A 4-byte aligned `nop.w` (f3af 8000): b.w and the trap udf.w replace it
 * with one aligned 32-bit store. The alignment may put a 2-byte `nop`
 * before it. sys/sdt.h's site is the 2-byte `nop`, too small for either. */
#define XSDT_ARCH_SITE_ALIGN ".balign 4"
#define XSDT_ARCH_SITE_NOP "nop.w"
/* Thumb state: already so inside the functions that hold sites, but a
 * top-level asm starts in ARM state. */
#define XSDT_ARCH_SITE_ENTER ".thumb"
#define XSDT_ARCH_SITE_LEAVE ""

#define XSDT_ARCH_ADDR ".4byte"

/* Registers are too few for 12 operands, and a 64-bit value would sit in a
 * register pair that a spec cannot name, so the generic header splits the
 * arguments (as on i386): the first ones of 32 bits or less are "nl"
 * operands, a low register r0..r7 (the bare names both gdb and libbpf read:
 * gdb reads no ip or lr, libbpf no r11 or r12) or a #constant; 8-byte and
 * floating-point values and the arguments past the register budget are
 * copied to slots of one local array, named off one base register as
 * [BASE, #OFFSET] (an "m" operand of its own per slot would take a
 * register each with clang, and with gcc at -O0). r7 is Thumb's frame
 * pointer and the base takes one more: six low registers are left for
 * values. gcc prints r11 and r12 as fp and ip, which libbpf reads; clang
 * prints r11 and r12, which it does not: the assembler writes fp and ip. */
#define XSDT_ARCH_ARG_AREA_REGS 6
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nl"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%[xsdt_a" #n "]\"\n"
#define XSDT_ARCH_ARG_SLOT_BASE_ASM(offset)                                    \
  ".ifc %[xsdt_base],r11\n"                                                    \
  ".ascii \"[fp, #" offset "]\"\n"                                             \
  ".else\n"                                                                    \
  ".ifc %[xsdt_base],r12\n"                                                    \
  ".ascii \"[ip, #" offset "]\"\n"                                             \
  ".else\n"                                                                    \
  ".ascii \"[%[xsdt_base], #" offset "]\"\n"                                   \
  ".endif\n"                                                                   \
  ".endif\n"

#endif
