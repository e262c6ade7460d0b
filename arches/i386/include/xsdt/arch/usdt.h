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

/* i386 has six or seven allocatable registers, too few for 12 "nr" operands,
 * and an 8-byte value would sit in a register pair that a spec cannot name.
 * A memory alternative ("nor", "nrm") is no way out: gcc then prints
 * sym@GOTOFF(%ebx) and SIB forms even for local copies. So arguments go
 * through the generic argument area, and each spec is `SIZE@OFFSET(%reg)`
 * off the area's address held in one register (%k: its 32-bit name). */
#define XSDT_ARCH_ARG_AREA_ASM(offset) ".ascii \"" offset "(%k[xsdt_area])\"\n"

#endif
