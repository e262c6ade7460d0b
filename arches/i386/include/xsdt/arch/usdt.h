/* xsdt backend: i386. Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* One 5-byte instruction, nopl 0(%eax,%eax,1) (i686 and later), never five
 * 1-byte NOPs: a thread stopped between them would resume inside the jump
 * that later replaces the site. */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""

#define XSDT_ARCH_ADDR ".4byte"

/* i386 has six or seven allocatable registers, too few for 12 "nr"
 * operands, and an 8-byte value would sit in a register pair that a spec
 * cannot name. A memory alternative for the values ("nor", "nrm") is no way
 * out: gcc then prints sym@GOTOFF(%ebx) and SIB forms even for local
 * copies. So the generic header splits the arguments: the first ones of 32
 * bits or less are "nr" operands printed by their 32-bit name (%k: `%eax`,
 * or `$7` for a constant; gdb reads %ax as %eax anyway, and the spec's size
 * says how many low bytes count), and the rest are copied to local slots,
 * "m" operands printed as the stack slot (`-8@8(%esp)`).
 *
 * How many registers an asm always gets, measured at -O0..-Os with -fPIC
 * in the worst case we found: a frame pointer, a realigned stack and alloca
 * (plus -pg, -fsplit-stack, -mforce-drap, -fsanitize=address): gcc-12 still
 * gives six, clang-14 five (%ebp is the frame pointer and %esi the base
 * pointer there); one more fails to compile. */
#ifdef __clang__
#define XSDT_ARCH_ARG_AREA_REGS 5
#else
#define XSDT_ARCH_ARG_AREA_REGS 6
#endif
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%k[a" #n "]\"\n"
#define XSDT_ARCH_ARG_MEM_ASM(n) ".ascii \"%[s" #n "]\"\n"

#endif
