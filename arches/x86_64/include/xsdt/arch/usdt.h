/* xsdt backend: x86-64. Included by <xsdt/usdt.h>; not for direct use. */
#ifndef XSDT_ARCH_USDT_H
#define XSDT_ARCH_USDT_H

/* A USDT site is a 1-byte `nop`, where the note points, then the 10-byte
 * `nopw %cs:0(%rax,%rax,1)`. Linux 6.18 rewrites a uprobe that sits on a
 * 5-byte NOP (0f 1f 44 00 00) into a CALL to its trampoline after the
 * first hit, and the CALL pushes its return address at [rsp-8]: inside the
 * red zone, where a leaf function keeps data without moving %rsp. A uprobe
 * on the 1-byte nop is always an int3, on every kernel; kernels that
 * optimize the 10-byte NOP behind it (a tracer moves its uprobe there)
 * step below the red zone first. A thread stopped between the two
 * instructions resumes at the 10-byte one, which is one instruction.
 * Spelled as bytes so every assembler emits the same encoding
 * (docs/design.md, "Site"). */
#define XSDT_ARCH_SITE_ALIGN ""
#define XSDT_ARCH_SITE_NOP                                                     \
  ".byte 0x90, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00"
#define XSDT_ARCH_SITE_ENTER ""
#define XSDT_ARCH_SITE_LEAVE ""
/* An SDT(9) jump site is the same pair; its record points at the 10-byte
 * NOP, whose first 5 bytes jump mode turns into `e9 rel32`. A uprobe put on
 * the function or the source line lands on the 1-byte nop (an int3); one
 * put on the 10-byte NOP is refused by 6.18 (its segment prefix) and
 * optimized below the red zone by the kernels that take it. */
#define XSDT_ARCH_JUMP_SITE_HEAD "nop"
#define XSDT_ARCH_JUMP_SITE_NOP                                                \
  ".byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00"

#define XSDT_ARCH_ADDR ".8byte"

/* "nr": immediates print as $imm, everything else is forced into a register.
 * sys/sdt.h's "nor" lets the compiler pick memory, which yields sym(%rip) for
 * globals and SIB forms for indexed loads: both outside the portable subset.
 * %q names the 64-bit register whatever the operand width (the spec's size
 * says how many low bytes are meaningful); consumers know every 64-bit name,
 * whereas byte names such as %r8b are spelled differently by gdb. */
#define XSDT_ARCH_ARG_CONSTRAINT "nr"
#define XSDT_ARCH_ARG_ASM(n) ".ascii \"%q[a" #n "]\"\n"

/* The call of an enabled SDT(9) site (<xsdt/sdt.h>): an asm statement, not
 * a C call, so that the function holding the site stays a leaf if it was
 * one, and the compiler neither moves values to callee-saved registers nor
 * shuffles them into argument registers for it. The asm preserves what a
 * call would clobber itself, on the out-of-line path only: it steps over
 * the red zone (the 128 bytes below %rsp that a leaf may use without
 * moving %rsp), pushes the nine caller-saved general registers and %rbx
 * (which keeps the unaligned %rsp), then pushes the probe and the
 * arguments from whatever registers the compiler chose ("r": never %rsp,
 * and no memory operand, whose %rsp-relative address the pushes would
 * move) and pops them into the call's argument registers, aligns %rsp to
 * 16 as the ABI wants at a call, passes the 7th and 8th parameters on the
 * stack, calls xsdt_sdt_fire<n> and undoes all of it. What it does not
 * save, the vector and x87 registers and the flags, it declares clobbered:
 * the compiler saves those, if it has them live, in the out-of-line block.
 * The asm has no CFI for its own stack moves: a DWARF unwinder stopped in
 * a handler does not get past the function holding the site (frame
 * pointers still work).
 * Opt-in: a program that defines XSDT_SDT_PRESERVING_CALL gets it, the
 * others the plain call. */
#define XSDT_ARCH_SDT_CALLS 1
#define XSDT_X86_64_CALL_ASM_(n, args, stack_args)                             \
  "lea -128(%%rsp), %%rsp\n"                                                   \
  "push %%rax\n push %%rcx\n push %%rdx\n push %%rsi\n push %%rdi\n"           \
  "push %%r8\n push %%r9\n push %%r10\n push %%r11\n push %%rbx\n" args        \
  "mov %%rsp, %%rbx\n"                                                         \
  "and $-16, %%rsp\n" stack_args "call xsdt_sdt_fire" #n "@PLT\n"              \
  "mov %%rbx, %%rsp\n"                                                         \
  "pop %%rbx\n pop %%r11\n pop %%r10\n pop %%r9\n pop %%r8\n"                  \
  "pop %%rdi\n pop %%rsi\n pop %%rdx\n pop %%rcx\n pop %%rax\n"                \
  "lea 128(%%rsp), %%rsp\n"
/* The x87 registers must be named together (a clobber list names the top
 * of the x87 stack and what follows). AVX-512's extra registers exist only
 * where the compiler targets them. */
#ifdef __AVX512F__
#define XSDT_X86_64_CLOBBERS_AVX512_                                           \
  , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",    \
      "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",  \
      "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#else
#define XSDT_X86_64_CLOBBERS_AVX512_
#endif
#define XSDT_ARCH_SDT_CLOBBERS                                                 \
  "cc", "memory", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)",  \
      "st(7)", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
      "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",             \
      "xmm15" XSDT_X86_64_CLOBBERS_AVX512_
/* The probe and the arguments are pushed in operand order and popped into
 * the call's registers, the last first; the 7th parameter (a5) and the 8th
 * (a6) go on the stack, a5 at the lower address, %rsp 16-aligned at the
 * call. */
#define XSDT_X86_64_PARAM0_ "%%rdi"
#define XSDT_X86_64_PARAM1_ "%%rsi"
#define XSDT_X86_64_PARAM2_ "%%rdx"
#define XSDT_X86_64_PARAM3_ "%%rcx"
#define XSDT_X86_64_PARAM4_ "%%r8"
#define XSDT_X86_64_PARAM5_ "%%r9"
#define XSDT_X86_64_PARAM6_ "%%r10"
#define XSDT_X86_64_PARAM7_ "%%r11"
#define XSDT_X86_64_STACK_PARAMS0_ ""
#define XSDT_X86_64_STACK_PARAMS1_ ""
#define XSDT_X86_64_STACK_PARAMS2_ ""
#define XSDT_X86_64_STACK_PARAMS3_ ""
#define XSDT_X86_64_STACK_PARAMS4_ ""
#define XSDT_X86_64_STACK_PARAMS5_ ""
#define XSDT_X86_64_STACK_PARAMS6_ "sub $8, %%rsp\n push %%r10\n"
#define XSDT_X86_64_STACK_PARAMS7_ "push %%r11\n push %%r10\n"
#define XSDT_X86_64_PUSH_(i) "push %" #i "\n"
#define XSDT_X86_64_POP_(i) "pop " XSDT_X86_64_PARAM##i##_ "\n"
#define XSDT_ARCH_SDT_CALL_ASM(n)                                              \
  XSDT_X86_64_CALL_ASM_(n,                                                     \
                        XSDT_SDT_UP##n##_(XSDT_X86_64_PUSH_)                   \
                            XSDT_SDT_DOWN##n##_(XSDT_X86_64_POP_),             \
                        XSDT_X86_64_STACK_PARAMS##n##_)

#endif
