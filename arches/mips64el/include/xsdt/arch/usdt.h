/* xsdt backend: 64-bit little-endian MIPS, n64 ABI (mips64el). Included by
 * <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* The one 4-byte `nop` (sll $0,$0,0), which a j or the trap `break`
 * replaces with one aligned store. Under noreorder, so that the assembler
 * neither moves it into a branch's delay slot nor fills the slot with it:
 * a trap in a delay slot would report the branch's pc. An SDT(9) jump site
 * is the NOP and the NOP of the jump's delay slot, which is never written
 * (as Linux's MIPS jump labels): without it the compiler's next
 * instruction would run in the slot, before the out-of-line block. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_JUMP_SITE_NOP "nop\nnop"
#define XSDT_ARCH_SITE_ENTER ".set push\n.set noreorder\n.set nomacro"
#define XSDT_ARCH_SITE_LEAVE ".set pop"

#define XSDT_ARCH_ADDR ".8byte"

/* "nr": a register prints as its number ($4) or $sp/$fp, a constant as a
 * bare number; no memory alternative (sys/sdt.h's "o" gives %lo(sym)($2)
 * and friends). */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%[a" #n "]\"\n"

/* clang 14 cannot hand a float or a double to an "r" operand ("couldn't
 * allocate input reg"): floating-point values go to the asm as their bit
 * pattern, an integer both compilers put whole in a general register. */
#define XSDT_ARCH_ARG_VALUE(x) XSDT_FLOAT_BITS_(x)

#endif
