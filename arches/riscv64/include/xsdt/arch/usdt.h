/* xsdt backend: RISC-V 64. Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* A 4-byte `nop` (00000013). With the C extension a plain `nop` assembles to
 * the 2-byte c.nop, too small for ebreak-or-jal patching, so the site is
 * emitted under norvc, and under norelax so the linker cannot shrink it.
 * The alignment comes first, while RVC is still on: clang's assembler cannot
 * pad a 2-byte hole with 4-byte nops. */
#define XSDT_ARCH_SITE_ALIGN ".balign 4"
#define XSDT_ARCH_SITE_NOP "nop"
#define XSDT_ARCH_SITE_ENTER ".option push\n.option norvc\n.option norelax"
#define XSDT_ARCH_SITE_LEAVE ".option pop"

#define XSDT_ARCH_ADDR ".8byte"

/* "nr" instead of "nor": clang before LLVM 17 crashes on riscv memory operands
 * (LLVM #58477), and gcc's memory forms may omit the offset. Registers print
 * as ABI names, immediates bare. clang may hand a zero value over in the
 * `zero` register, which libbpf rejects: the assembler writes `0` instead. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n)                                                   \
  ".ifc %[a" #n "],zero\n"                                                \
  ".ascii \"0\"\n"                                                              \
  ".else\n"                                                                    \
  ".ascii \"%[a" #n "]\"\n"                                                \
  ".endif\n"

#endif
