/* xsdt backend: 64-bit little-endian POWER. Included by <xsdt/usdt.h>; not
 * for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* The one 4-byte nop (ori 0,0,0): a b or a trap replaces it with one
 * aligned store. Instructions are 4-byte aligned already. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""

#define XSDT_ARCH_ADDR ".8byte"

/* "nr", never sys/sdt.h's "nZr": the Z (indexed memory) alternative gives
 * `3,4`, which gdb cannot read, and clang puts every argument in memory for
 * it. A register prints as its number (3), which is how gdb reads it; %I
 * prints the `i` of an immediate (i5): a bare number would be a register. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%I[a" #n "]%[a" #n "]\"\n"

/* clang 14 hands a double to an "r" operand as its low 32 bits (lwz, li):
 * floating-point values go to the asm as their bit pattern, an integer
 * that both compilers put whole in a general register. */
#define XSDT_ARCH_ARG_VALUE(x) XSDT_FLOAT_BITS_(x)

#endif
