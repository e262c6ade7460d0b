/* xsdt backend: 64-bit s390 (z/Architecture). Included by <xsdt/usdt.h>;
 * not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* A 6-byte nop, `brcl 0,.+6` (c0 04 00 00 00 03): wide enough for the
 * 6-byte jump, and a never-taken branch whose latent target is the next
 * instruction, so that a mask flipped too early is harmless. sys/sdt.h's
 * 4-byte `nop 0` takes a trap but no jump that reaches further than 64 KiB.
 * Instructions are 2-byte aligned already. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP "brcl 0,.+6"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""

/* An SDT(9) jump site is `brcl 0,<out-of-line block>`, as Linux's jump
 * labels: the NOP names the target already, so enabling and disabling
 * write the condition mask alone (one byte, 0 <-> 15), which other CPUs
 * see whole. */
#define XSDT_ARCH_JUMP_SITE_NOP "brcl 0,%l0"
#define XSDT_ARCH_JUMP_SITE_NAMES_TARGET 1

#define XSDT_ARCH_ADDR ".8byte"

/* "nr" instead of sys/sdt.h's "nor": its memory alternative gives gcc's
 * index form 16(%r3,%r2), which gdb cannot read, and clang puts every
 * argument in memory for it. A register prints as %r2, an immediate as a
 * bare number, which is how gdb, libbpf and bcc read them. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%[a" #n "]\"\n"

/* clang 14 hands a double to an "r" operand without moving it out of its
 * floating-point register (the spec then names a general register that
 * holds something else): floating-point values go to the asm as their bit
 * pattern, an integer that both compilers put whole in a general register. */
#define XSDT_ARCH_ARG_VALUE(x) XSDT_FLOAT_BITS_(x)

#endif
