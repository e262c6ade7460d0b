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

/* The call of an enabled SDT(9) site (<xsdt/sdt.h>): an asm statement, not
 * a C call, so that the function holding the site stays a leaf if it was
 * one: the compiler saves no return address and moves nothing to
 * callee-saved registers for it. The asm preserves what a call would
 * clobber itself, on the out-of-line path only: ra (the call writes it),
 * t0-t6 (a PLT stub uses some) and a0-a7. It then stores the probe and the
 * arguments from whatever registers the compiler chose and loads them into
 * a0-a7 (a parallel move through memory: no operand is overwritten before
 * it is read), calls xsdt_sdt_fire<n> and undoes all of it. sp stays
 * 16-aligned; the RISC-V psABI has no red zone below it. The caller-saved
 * floating-point registers are declared clobbered: the compiler saves
 * those, if it has them live, in the out-of-line block. With the vector
 * extension the plain call is kept (its registers are not saved here).
 * The asm has no CFI for its own stack moves: a DWARF unwinder stopped in
 * a handler does not get past the function holding the site.
 *
 * Opt-in: a program that defines XSDT_SDT_PRESERVING_CALL gets it, the
 * others the plain call. */
#ifndef __riscv_vector
#define XSDT_ARCH_SDT_CALLS 1
#endif
#define XSDT_RISCV64_CALL_ASM_(n, args)                                        \
  "addi sp, sp, -128\n"                                                        \
  "sd ra, 0(sp)\n sd t0, 8(sp)\n sd t1, 16(sp)\n sd t2, 24(sp)\n"              \
  "sd t3, 32(sp)\n sd t4, 40(sp)\n sd t5, 48(sp)\n sd t6, 56(sp)\n"            \
  "sd a0, 64(sp)\n sd a1, 72(sp)\n sd a2, 80(sp)\n sd a3, 88(sp)\n"            \
  "sd a4, 96(sp)\n sd a5, 104(sp)\n sd a6, 112(sp)\n sd a7, 120(sp)\n"         \
  "addi sp, sp, -64\n" args "addi sp, sp, 64\n"                                \
  "call xsdt_sdt_fire" #n "@plt\n"                                             \
  "ld a7, 120(sp)\n ld a6, 112(sp)\n ld a5, 104(sp)\n ld a4, 96(sp)\n"         \
  "ld a3, 88(sp)\n ld a2, 80(sp)\n ld a1, 72(sp)\n ld a0, 64(sp)\n"            \
  "ld t6, 56(sp)\n ld t5, 48(sp)\n ld t4, 40(sp)\n ld t3, 32(sp)\n"            \
  "ld t2, 24(sp)\n ld t1, 16(sp)\n ld t0, 8(sp)\n ld ra, 0(sp)\n"              \
  "addi sp, sp, 128\n"
#ifdef __riscv_flen
#define XSDT_ARCH_SDT_CLOBBERS                                                 \
  "memory", "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8",     \
      "ft9", "ft10", "ft11", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6",  \
      "fa7"
#else
#define XSDT_ARCH_SDT_CLOBBERS "memory"
#endif
/* The probe and the arguments go to the stack in operand order, then into
 * a0..a<n>. */
#define XSDT_RISCV64_STORE_(i) "sd %" #i ", 8*" #i "(sp)\n"
#define XSDT_RISCV64_LOAD_(i) "ld a" #i ", 8*" #i "(sp)\n"
#define XSDT_ARCH_SDT_CALL_ASM(n)                                              \
  XSDT_RISCV64_CALL_ASM_(n, XSDT_SDT_UP##n##_(XSDT_RISCV64_STORE_)             \
                                XSDT_SDT_UP##n##_(XSDT_RISCV64_LOAD_))

#endif
