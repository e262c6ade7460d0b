/* xsdt backend: AArch64. Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* A 4-byte aligned `nop` (d503201f); B, BRK and NOP can replace one another
 * with a single aligned 32-bit store. */
#define XSDT_ARCH_SITE_ALIGN ".balign 4"
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""

#define XSDT_ARCH_ADDR ".8byte"

/* "nr" instead of sys/sdt.h's "nor": a memory alternative lets gcc print
 * [x0, #:lo12:sym] for globals, which no consumer can decode. %x prints the
 * x-register name (libbpf rejects w-registers) and leaves immediates bare,
 * except that both compilers print a constant 0 as `xzr`, which gdb and
 * libbpf cannot read: the assembler turns that one back into `0`. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n)                                                   \
  ".ifc %x[a" #n "],xzr\n"                                                \
  ".ascii \"0\"\n"                                                              \
  ".else\n"                                                                    \
  ".ascii \"%x[a" #n "]\"\n"                                               \
  ".endif\n"

/* gcc extends a char or short argument (`and w2, w2, #0xff`, `sxth w3,
 * w3`) before an asm without outputs, although the spec's size (`1@x2`)
 * tells every consumer to read the low bytes only: an unused output lets
 * it drop the extension (see XSDT_ARCH_SITE_OUTPUT in <xsdt/usdt.h>).
 * clang does not extend, and gets the asm without an output. */
#ifndef __clang__
#define XSDT_ARCH_SITE_OUTPUT 1
#endif

#endif
