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
  ".ifc %x[a" #n "],xzr\n"                                                     \
  ".ascii \"0\"\n"                                                             \
  ".else\n"                                                                    \
  ".ascii \"%x[a" #n "]\"\n"                                                   \
  ".endif\n"

/* gcc extends a char or short argument (`and w2, w2, #0xff`, `sxth w3,
 * w3`) before an asm without outputs, although the spec's size (`1@x2`)
 * tells every consumer to read the low bytes only: an unused output lets
 * it drop the extension (see XSDT_ARCH_SITE_OUTPUT in <xsdt/usdt.h>).
 * clang does not extend, and gets the asm without an output. */
#ifndef __clang__
#define XSDT_ARCH_SITE_OUTPUT 1
#endif

/* The call of an enabled SDT(9) site (<xsdt/sdt.h>): an asm statement, not
 * a C call, so that the function holding the site stays a leaf if it was
 * one: the compiler saves no link register and moves nothing to
 * callee-saved registers for it. The asm preserves what a call would
 * clobber itself, on the out-of-line path only: x0-x18 and x30 (the bl
 * writes it), and q8-q15 whole (a callee keeps only their low 64 bits,
 * and the compiler may hold a full vector there across an asm). It then
 * stores the probe and the arguments from whatever registers the compiler
 * chose and loads them into x0-x7 (a parallel move through memory: no
 * operand is overwritten before it is read), calls xsdt_sdt_fire<n> and
 * undoes all of it. sp stays 16-aligned throughout; AArch64 Linux has no
 * red zone below it. The other vector registers and the flags are
 * declared clobbered: the compiler saves those, if it has them live, in
 * the out-of-line block. With SVE the vector and predicate state is wider
 * than this saves: the plain call is kept. The asm has no CFI for its own
 * stack moves: a DWARF unwinder stopped in a handler does not get past the
 * function holding the site.
 * Opt-in: a program that defines XSDT_SDT_PRESERVING_CALL gets it, the
 * others the plain call. */
#ifndef __ARM_FEATURE_SVE
#define XSDT_ARCH_SDT_CALLS 1
#endif
#define XSDT_AARCH64_CALL_ASM_(n, args)                                        \
  "sub sp, sp, #288\n"                                                         \
  "stp x0, x1, [sp, #0]\n stp x2, x3, [sp, #16]\n"                             \
  "stp x4, x5, [sp, #32]\n stp x6, x7, [sp, #48]\n"                            \
  "stp x8, x9, [sp, #64]\n stp x10, x11, [sp, #80]\n"                          \
  "stp x12, x13, [sp, #96]\n stp x14, x15, [sp, #112]\n"                       \
  "stp x16, x17, [sp, #128]\n stp x18, x30, [sp, #144]\n"                      \
  "stp q8, q9, [sp, #160]\n stp q10, q11, [sp, #192]\n"                        \
  "stp q12, q13, [sp, #224]\n stp q14, q15, [sp, #256]\n"                      \
  "sub sp, sp, #64\n" args "add sp, sp, #64\n"                                 \
  "bl xsdt_sdt_fire" #n "\n"                                                   \
  "ldp q14, q15, [sp, #256]\n ldp q12, q13, [sp, #224]\n"                      \
  "ldp q10, q11, [sp, #192]\n ldp q8, q9, [sp, #160]\n"                        \
  "ldp x18, x30, [sp, #144]\n ldp x16, x17, [sp, #128]\n"                      \
  "ldp x14, x15, [sp, #112]\n ldp x12, x13, [sp, #96]\n"                       \
  "ldp x10, x11, [sp, #80]\n ldp x8, x9, [sp, #64]\n"                          \
  "ldp x6, x7, [sp, #48]\n ldp x4, x5, [sp, #32]\n"                            \
  "ldp x2, x3, [sp, #16]\n ldp x0, x1, [sp, #0]\n"                             \
  "add sp, sp, #288\n"
#define XSDT_ARCH_SDT_CLOBBERS                                                 \
  "cc", "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16",       \
      "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",    \
      "v27", "v28", "v29", "v30", "v31"
/* The probe and the arguments go to the stack in operand order, then into
 * x0..x<n>. */
#define XSDT_AARCH64_STORE_(i) "str %x" #i ", [sp, #8*" #i "]\n"
#define XSDT_AARCH64_LOAD_(i) "ldr x" #i ", [sp, #8*" #i "]\n"
#define XSDT_ARCH_SDT_CALL_ASM(n)                                              \
  XSDT_AARCH64_CALL_ASM_(n, XSDT_SDT_UP##n##_(XSDT_AARCH64_STORE_)             \
                                XSDT_SDT_UP##n##_(XSDT_AARCH64_LOAD_))

#endif
