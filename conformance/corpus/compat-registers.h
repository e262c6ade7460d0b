/* xsdt-arch-specific: a register variable names its register, and every arch names its own; one row per arch. */
/* Registers that compat-regvars.c and compat-regvars.cpp pin their probe
 * arguments to (`register T v __asm__("r12")`), and compat-asm.c,
 * compat-asm.cpp and compat-asm-wide.c their asm operands: on each arch
 * three general registers, callee-saved ones (on armhf two, and ip, which
 * no portable spec names), and its floating-point registers, double and
 * float, plus on x86-64 an int held in an SSE register (as gdb's own
 * stap-probe test does). A slot the arch does not fill, or an
 * arch not listed, declares a plain variable: the programs probe the same
 * arguments everywhere. */
#ifndef XSDT_COMPAT_REGISTERS_H
#define XSDT_COMPAT_REGISTERS_H

#if defined(__x86_64__)
#define COMPAT_REG_GP1 "r12"
#define COMPAT_REG_GP2 "rbx"
#define COMPAT_REG_GP3 "r15"
#define COMPAT_REG_DOUBLE "xmm0"
#define COMPAT_REG_DOUBLE2 "xmm9"
#define COMPAT_REG_FLOAT "xmm3"
#define COMPAT_REG_INT_IN_FP "xmm5"
#elif defined(__i386__)
#define COMPAT_REG_GP1 "ebx"
#define COMPAT_REG_GP2 "esi"
#define COMPAT_REG_GP3 "edi"
#elif defined(__aarch64__)
#define COMPAT_REG_GP1 "x19"
#define COMPAT_REG_GP2 "x28"
#define COMPAT_REG_GP3 "x20"
#define COMPAT_REG_DOUBLE "d8"
#define COMPAT_REG_DOUBLE2 "v9"
#define COMPAT_REG_FLOAT "s10"
#elif defined(__riscv)
/* ra (x1): the lowest register a ucontext copy must take (x0 reads 0). */
#define COMPAT_REG_GP1 "s1"
#define COMPAT_REG_GP2 "s11"
#define COMPAT_REG_GP3 "ra"
#define COMPAT_REG_DOUBLE "fs0"
#define COMPAT_REG_DOUBLE2 "fs2"
#define COMPAT_REG_FLOAT "fs1"
#elif defined(__powerpc64__)
/* gcc spells the floating-point registers fr14 (it rejects f14). */
#define COMPAT_REG_GP1 "r14"
#define COMPAT_REG_GP2 "r15"
#define COMPAT_REG_GP3 "r16"
#define COMPAT_REG_DOUBLE "fr14"
#define COMPAT_REG_DOUBLE2 "fr16"
#define COMPAT_REG_FLOAT "fr15"
#elif defined(__s390x__)
#define COMPAT_REG_GP1 "r10"
#define COMPAT_REG_GP2 "r6"
#define COMPAT_REG_GP3 "r7"
#define COMPAT_REG_DOUBLE "f8"
#define COMPAT_REG_DOUBLE2 "f10"
#define COMPAT_REG_FLOAT "f9"
#elif defined(__arm__)
/* Not r7 (Thumb's frame pointer) nor r11 (ARM state's): gcc refuses them at
 * -O0 with or without a probe. ip (r12) is a register no portable spec
 * names. */
#define COMPAT_REG_GP1 "r4"
#define COMPAT_REG_GP2 "r8"
#define COMPAT_REG_GP3 "r12"
/* Soft-float (armel) has no VFP registers to pin to. */
#if !defined(__SOFTFP__)
#define COMPAT_REG_DOUBLE "d8"
#define COMPAT_REG_DOUBLE2 "d9"
#define COMPAT_REG_FLOAT "s20"
#endif
#endif

#define COMPAT_PINNED_(type, name, reg) register type name __asm__(reg)
#ifdef COMPAT_REG_GP1
#define COMPAT_GP1(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_GP1)
#else
#define COMPAT_GP1(type, name) type name
#endif
#ifdef COMPAT_REG_GP2
#define COMPAT_GP2(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_GP2)
#else
#define COMPAT_GP2(type, name) type name
#endif
#ifdef COMPAT_REG_GP3
#define COMPAT_GP3(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_GP3)
#else
#define COMPAT_GP3(type, name) type name
#endif
#ifdef COMPAT_REG_DOUBLE
#define COMPAT_DOUBLE(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_DOUBLE)
#else
#define COMPAT_DOUBLE(type, name) type name
#endif
#ifdef COMPAT_REG_DOUBLE2
#define COMPAT_DOUBLE2(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_DOUBLE2)
#else
#define COMPAT_DOUBLE2(type, name) type name
#endif
#ifdef COMPAT_REG_FLOAT
#define COMPAT_FLOAT(type, name) COMPAT_PINNED_(type, name, COMPAT_REG_FLOAT)
#else
#define COMPAT_FLOAT(type, name) type name
#endif
#ifdef COMPAT_REG_INT_IN_FP
#define COMPAT_INT_IN_FP(type, name)                                           \
  COMPAT_PINNED_(type, name, COMPAT_REG_INT_IN_FP)
#else
#define COMPAT_INT_IN_FP(type, name) type name
#endif

#endif
