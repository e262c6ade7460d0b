/* xsdt backend: x86-64. Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* One 5-byte instruction (nopl 0(%rax,%rax,1)) so that the site can later be
 * rewritten as a single `e9 rel32` jump or an int3 without splitting
 * instructions. Spelled as bytes so every assembler emits the same encoding. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""

#define XSDT_ARCH_ADDR ".8byte"

/* "nr": immediates print as $imm, everything else is forced into a register.
 * sys/sdt.h's "nor" lets the compiler pick memory, which yields sym(%rip) for
 * globals and SIB forms for indexed loads: both outside the portable subset.
 * %q names the 64-bit register whatever the operand width (the spec's size
 * says how many low bytes are meaningful); consumers know every 64-bit name,
 * whereas byte names such as %r8b are spelled differently by gdb. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%q[a" #n "]\"\n"

#endif
