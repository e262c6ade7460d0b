/* xsdt backend: 32-bit little-endian MIPS, o32 ABI (mipsel). Included by
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

#define XSDT_ARCH_ADDR ".4byte"

/* A 64-bit value (a long long, a double) would sit in a register pair that
 * a spec cannot name, so the generic header splits the arguments (as on
 * i386 and armhf): the first ones of 32 bits or less are "nr" operands,
 * printed as $N or a bare number; 8-byte and floating-point values and the
 * arguments past the register budget are copied to slots of one local
 * array, named off one base register as OFFSET($N). */
#define XSDT_ARCH_ARG_AREA_REGS 6
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%[a" #n "]\"\n"
#define XSDT_ARCH_ARG_SLOT_BASE_ASM(offset) ".ascii \"" offset "(%[b])\"\n"

#endif
