/*
 * xsdt: the FreeBSD SDT(9) probe API with hot-patchable jump sites
 * (C99+ and C++11+, gcc and clang, every arch with an arches/<arch> backend).
 *
 *   SDT_PROVIDER_DEFINE(prov) / SDT_PROVIDER_DECLARE(prov)
 *   SDT_PROBE_DEFINE0..7(prov, mod, func, name, "type"...)
 *   SDT_PROBE_DEFINE0..7_XLATE(prov, mod, func, name, "native", "xlated"...)
 *   SDT_PROBE_DEFINE(prov, mod, func, name)       untyped, as in FreeBSD
 *   SDT_PROBE_DECLARE(prov, mod, func, name)
 *   SDT_PROBE0..7(prov, mod, func, name, args...)  a site of the probe
 *
 * Every name also exists with an XSDT_ prefix (XSDT_SDT_PROBE3, ...); the
 * bare names are skipped when XSDT_SDT_NO_BARE_NAMES is defined or another
 * SDT header already defined SDT_PROBE.
 *
 * The probe id is prov:mod:func:name, with `__` in the name read as `-`.
 * An empty mod is the name of the object (program or library) that defines
 * the probe; an empty func is the function that holds the probe's sites
 * when they all lie in one function. A probe must be defined and fired in
 * the same ELF object (its symbols are hidden), and may have many sites.
 *
 * A site is an `asm goto` whose disabled path is one NOP of the arch's patch
 * width (the NOP of <xsdt/usdt.h> sites). The arguments are evaluated only
 * on the out-of-line path, which the runtime (libxsdt) enables by patching
 * the NOP into a jump to it (or into a trap that resumes there). That path
 * calls xsdt_sdt_fire<n>() with the probe and its arguments and falls back
 * to the code after the site.
 *
 * ELF layout (read by libxsdt at run time and by `xsdt-inspect` from files;
 * all offsets are self-relative 32-bit values, so PIE and shared objects
 * need no dynamic relocation for them):
 *
 *   section xsdt_sdt_probes ("aR"), one record per SDT_PROBE_DEFINE*,
 *   4-byte aligned and padded with zeros to a multiple of 4:
 *     u32 size       of the whole record, this field included
 *     s32 probe      -> the probe's struct xsdt_sdt_probe (writable data)
 *     u8  version    1
 *     u8  argc       0..7
 *     u8  flags      1: translated types given (_XLATE); 2: untyped
 *     u8  reserved   0
 *     provider, module, function, name: NUL-terminated strings
 *     argc times: native type, translated type ("" unless _XLATE)
 *
 *   section xsdt_sdt_sites ("ao", linked to the site's code section and in
 *   its COMDAT group), one 12-byte record per SDT_PROBEn site:
 *     s32 site       -> the NOP
 *     s32 target     -> the out-of-line block
 *     s32 probe      -> the probe's struct xsdt_sdt_probe
 */
#ifndef XSDT_SDT_H
#define XSDT_SDT_H

#include <stdint.h>
#include <xsdt/usdt.h>

#ifdef __cplusplus
#include <cstddef>
extern "C" {
#endif

/* A provider: defined once per object that defines its probes. */
struct xsdt_sdt_provider {
  const char *name;
};

/* A probe's run-time state. `runtime` belongs to libxsdt, which publishes
 * the probe's enabled state there; code must not touch it. */
struct xsdt_sdt_probe {
  const struct xsdt_sdt_provider *provider;
  void *volatile runtime;
};

/* The out-of-line path of every site: in libxsdt. Arguments are converted
 * to 64 bits: integers and enums sign- or zero-extended by their type,
 * pointers zero-extended. A site of an n-argument probe calls
 * xsdt_sdt_fire<n>: passing only what it has keeps small probes' calls in
 * registers (x86-64 has six), so the compiler reserves no outgoing stack
 * area on the hot path for them. xsdt_sdt_fire takes all seven. */
void xsdt_sdt_fire(struct xsdt_sdt_probe *probe, uint64_t arg0, uint64_t arg1,
                   uint64_t arg2, uint64_t arg3, uint64_t arg4, uint64_t arg5,
                   uint64_t arg6);
void xsdt_sdt_fire0(struct xsdt_sdt_probe *probe);
void xsdt_sdt_fire1(struct xsdt_sdt_probe *probe, uint64_t arg0);
void xsdt_sdt_fire2(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1);
void xsdt_sdt_fire3(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1, uint64_t arg2);
void xsdt_sdt_fire4(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1, uint64_t arg2, uint64_t arg3);
void xsdt_sdt_fire5(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1, uint64_t arg2, uint64_t arg3,
                    uint64_t arg4);
void xsdt_sdt_fire6(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1, uint64_t arg2, uint64_t arg3,
                    uint64_t arg4, uint64_t arg5);
void xsdt_sdt_fire7(struct xsdt_sdt_probe *probe, uint64_t arg0,
                    uint64_t arg1, uint64_t arg2, uint64_t arg3,
                    uint64_t arg4, uint64_t arg5, uint64_t arg6);

#ifdef __cplusplus
}
#endif

/* ---- Symbols ------------------------------------------------------------ */

#define XSDT_SDT_PROVIDER_SYM_(prov) xsdt_sdt_provider_##prov
#define XSDT_SDT_PROBE_SYM_(prov, mod, func, name)                             \
  xsdt_sdt_probe_##prov##_##mod##_##func##_##name

/* ---- Providers ---------------------------------------------------------- */

#define XSDT_SDT_PROVIDER_DECLARE(prov)                                        \
  XSDT_EXTERN_C_ __attribute__((visibility("hidden")))                         \
  const struct xsdt_sdt_provider XSDT_SDT_PROVIDER_SYM_(prov)
#define XSDT_SDT_PROVIDER_DEFINE(prov)                                         \
  XSDT_SDT_PROVIDER_DECLARE(prov);                                             \
  __attribute__((used)) const struct xsdt_sdt_provider                         \
      XSDT_SDT_PROVIDER_SYM_(prov) = {#prov}

/* ---- Probe definitions -------------------------------------------------- */

#define XSDT_SDT_PROBE_DECLARE(prov, mod, func, name)                          \
  XSDT_EXTERN_C_ __attribute__((visibility("hidden"))) struct xsdt_sdt_probe  \
  XSDT_SDT_PROBE_SYM_(prov, mod, func, name)

/* One type pair of the definition record. The types are C string literals;
 * stringizing one again yields the quoted text the assembler wants. */
#define XSDT_SDT_TYPE_(native, xlated) ".asciz " #native "\n.asciz " #xlated "\n"
#define XSDT_SDT_TYPE1_(native) XSDT_SDT_TYPE_(native, "")

/* The probe object (writable, referenced by the sites) and its definition
 * record (read-only, found by libxsdt and xsdt-inspect). The provider must
 * be declared: the initializer names it. */
#define XSDT_SDT_DEFINE_(prov, mod, func, name, argc, flags, types)            \
  XSDT_SDT_PROBE_DECLARE(prov, mod, func, name);                               \
  __attribute__((used)) struct xsdt_sdt_probe XSDT_SDT_PROBE_SYM_(             \
      prov, mod, func, name) = {&XSDT_SDT_PROVIDER_SYM_(prov), 0};             \
  __asm__(".pushsection xsdt_sdt_probes,\"aR\",%progbits\n"                    \
          ".balign 4\n"                                                        \
          "1: .4byte 2f - 1b\n"                                                \
          ".4byte " XSDT_STR_(XSDT_SDT_PROBE_SYM_(prov, mod, func,             \
                                                 name)) " - .\n"               \
          ".byte 1, " #argc ", " #flags ", 0\n"                                \
          ".asciz \"" #prov "\"\n"                                             \
          ".asciz \"" #mod "\"\n"                                              \
          ".asciz \"" #func "\"\n"                                             \
          ".asciz \"" #name "\"\n" types ".balign 4\n"                         \
          "2:\n"                                                               \
          ".popsection\n")

#define XSDT_SDT_PROBE_DEFINE(prov, mod, func, name)                           \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 0, 2, "")
#define XSDT_SDT_PROBE_DEFINE0(prov, mod, func, name)                          \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 0, 0, "")
#define XSDT_SDT_PROBE_DEFINE1(prov, mod, func, name, t0)                      \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 1, 0, XSDT_SDT_TYPE1_(t0))
#define XSDT_SDT_PROBE_DEFINE2(prov, mod, func, name, t0, t1)                  \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 2, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1))
#define XSDT_SDT_PROBE_DEFINE3(prov, mod, func, name, t0, t1, t2)              \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 3, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1)                     \
                       XSDT_SDT_TYPE1_(t2))
#define XSDT_SDT_PROBE_DEFINE4(prov, mod, func, name, t0, t1, t2, t3)          \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 4, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1)                     \
                       XSDT_SDT_TYPE1_(t2) XSDT_SDT_TYPE1_(t3))
#define XSDT_SDT_PROBE_DEFINE5(prov, mod, func, name, t0, t1, t2, t3, t4)      \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 5, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1)                     \
                       XSDT_SDT_TYPE1_(t2) XSDT_SDT_TYPE1_(t3)                 \
                           XSDT_SDT_TYPE1_(t4))
#define XSDT_SDT_PROBE_DEFINE6(prov, mod, func, name, t0, t1, t2, t3, t4, t5)  \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 6, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1)                     \
                       XSDT_SDT_TYPE1_(t2) XSDT_SDT_TYPE1_(t3)                 \
                           XSDT_SDT_TYPE1_(t4) XSDT_SDT_TYPE1_(t5))
#define XSDT_SDT_PROBE_DEFINE7(prov, mod, func, name, t0, t1, t2, t3, t4, t5,  \
                               t6)                                             \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 7, 0,                                \
                   XSDT_SDT_TYPE1_(t0) XSDT_SDT_TYPE1_(t1)                     \
                       XSDT_SDT_TYPE1_(t2) XSDT_SDT_TYPE1_(t3)                 \
                           XSDT_SDT_TYPE1_(t4) XSDT_SDT_TYPE1_(t5)             \
                               XSDT_SDT_TYPE1_(t6))

#define XSDT_SDT_PROBE_DEFINE0_XLATE(prov, mod, func, name)                    \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 0, 1, "")
#define XSDT_SDT_PROBE_DEFINE1_XLATE(prov, mod, func, name, t0, x0)            \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 1, 1, XSDT_SDT_TYPE_(t0, x0))
#define XSDT_SDT_PROBE_DEFINE2_XLATE(prov, mod, func, name, t0, x0, t1, x1)    \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 2, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1))
#define XSDT_SDT_PROBE_DEFINE3_XLATE(prov, mod, func, name, t0, x0, t1, x1,    \
                                     t2, x2)                                   \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 3, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1)               \
                       XSDT_SDT_TYPE_(t2, x2))
#define XSDT_SDT_PROBE_DEFINE4_XLATE(prov, mod, func, name, t0, x0, t1, x1,    \
                                     t2, x2, t3, x3)                           \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 4, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1)               \
                       XSDT_SDT_TYPE_(t2, x2) XSDT_SDT_TYPE_(t3, x3))
#define XSDT_SDT_PROBE_DEFINE5_XLATE(prov, mod, func, name, t0, x0, t1, x1,    \
                                     t2, x2, t3, x3, t4, x4)                   \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 5, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1)               \
                       XSDT_SDT_TYPE_(t2, x2) XSDT_SDT_TYPE_(t3, x3)           \
                           XSDT_SDT_TYPE_(t4, x4))
#define XSDT_SDT_PROBE_DEFINE6_XLATE(prov, mod, func, name, t0, x0, t1, x1,    \
                                     t2, x2, t3, x3, t4, x4, t5, x5)           \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 6, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1)               \
                       XSDT_SDT_TYPE_(t2, x2) XSDT_SDT_TYPE_(t3, x3)           \
                           XSDT_SDT_TYPE_(t4, x4) XSDT_SDT_TYPE_(t5, x5))
#define XSDT_SDT_PROBE_DEFINE7_XLATE(prov, mod, func, name, t0, x0, t1, x1,    \
                                     t2, x2, t3, x3, t4, x4, t5, x5, t6, x6)   \
  XSDT_SDT_DEFINE_(prov, mod, func, name, 7, 1,                                \
                   XSDT_SDT_TYPE_(t0, x0) XSDT_SDT_TYPE_(t1, x1)               \
                       XSDT_SDT_TYPE_(t2, x2) XSDT_SDT_TYPE_(t3, x3)           \
                           XSDT_SDT_TYPE_(t4, x4) XSDT_SDT_TYPE_(t5, x5)       \
                               XSDT_SDT_TYPE_(t6, x6))

/* ---- Sites -------------------------------------------------------------- */

/* Arguments become uint64_t on the out-of-line path only. Floating-point
 * arguments are rejected at compile time: SDT(9) arguments are integers
 * and pointers (FreeBSD passes them as uintptr_t). */
#ifdef __cplusplus
namespace xsdt {
namespace detail {
template <class T> inline uint64_t sdt_arg(T *p) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p));
}
inline uint64_t sdt_arg(std::nullptr_t) { return 0; }
template <class T>
inline typename std::enable_if<std::is_integral<T>::value ||
                                   std::is_enum<T>::value,
                               uint64_t>::type
sdt_arg(T v) {
  return static_cast<uint64_t>(v);
}
} // namespace detail
} // namespace xsdt
#define XSDT_SDT_ARG_(x) ::xsdt::detail::sdt_arg(x)
#else
/* x is evaluated once: __builtin_choose_expr evaluates only its pick. */
#define XSDT_SDT_ARG_(x)                                                       \
  ((uint64_t)(uintptr_t)__builtin_choose_expr(XSDT_ARG_POINTER_(x), (x), 0) + \
   (uint64_t)__builtin_choose_expr(XSDT_ARG_POINTER_(x), 0, (x)) +            \
   0 * sizeof(char[XSDT_ARG_FLOAT_(x) ? -1 : 1]))
#endif

/* gcc may move the out-of-line block to .text.unlikely; clang has no label
 * attributes and places it after the function's return anyway. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus)
#define XSDT_SDT_COLD_LABEL_ __attribute__((cold));
#else
#define XSDT_SDT_COLD_LABEL_ ;
#endif

/* The NOP of a jump site: the arch's site NOP, unless the arch's names the
 * out-of-line block (%l0), as s390x's `brcl 0,target` does, or differs
 * (x86-64's 10-byte NOP). An arch may put code before the site's label
 * that is not part of the site (x86-64: the 1-byte nop a uprobe on the
 * function or the line lands on). */
#ifndef XSDT_ARCH_JUMP_SITE_NOP
#define XSDT_ARCH_JUMP_SITE_NOP XSDT_ARCH_SITE_NOP
#endif
#ifndef XSDT_ARCH_JUMP_SITE_HEAD
#define XSDT_ARCH_JUMP_SITE_HEAD ""
#endif

/* The call of an enabled site. A plain call of xsdt_sdt_fire<n> makes the
 * function holding the site a caller: whatever it keeps in caller-saved
 * registers across the site moves to callee-saved ones, saved in its
 * prologue, on the hot path too (a leaf function pays most). An arch may
 * define XSDT_ARCH_SDT_CALLS in its <xsdt/arch/usdt.h>, with the text of an
 * asm statement that makes the call and preserves every general register
 * itself, so that the compiler sees no call (docs/jump-sites.md):
 *   XSDT_ARCH_SDT_CALL_ASM(n)  the asm's text for a probe of n arguments:
 *       the probe is operand %0 and the arguments %1..%n, each an "r"
 *       operand of a 64-bit temporary; it saves what a call would clobber,
 *       moves them where xsdt_sdt_fire<n> takes them, calls it and restores.
 *       XSDT_SDT_UP<n>_(M) and XSDT_SDT_DOWN<n>_(M) expand M(0) .. M(n) and
 *       M(n) .. M(0), for the text of each operand;
 *   XSDT_ARCH_SDT_CLOBBERS     what the asm does not preserve.
 * A translation unit opts in by defining XSDT_SDT_PRESERVING_CALL before
 * this header. Not the default, because the asm moves the stack pointer
 * without CFI of its own: while a handler runs, a DWARF unwinder (a C++
 * exception a handler throws, backtrace()) cannot get past the function
 * holding the site; and it makes an enabled hit dearer (the saves). */
#if defined(XSDT_ARCH_SDT_CALLS) && defined(XSDT_SDT_PRESERVING_CALL)
#define XSDT_SDT_CALL_(n) XSDT_SDT_PRESERVING_CALL##n##_

#define XSDT_SDT_UP0_(M) M(0)
#define XSDT_SDT_UP1_(M) XSDT_SDT_UP0_(M) M(1)
#define XSDT_SDT_UP2_(M) XSDT_SDT_UP1_(M) M(2)
#define XSDT_SDT_UP3_(M) XSDT_SDT_UP2_(M) M(3)
#define XSDT_SDT_UP4_(M) XSDT_SDT_UP3_(M) M(4)
#define XSDT_SDT_UP5_(M) XSDT_SDT_UP4_(M) M(5)
#define XSDT_SDT_UP6_(M) XSDT_SDT_UP5_(M) M(6)
#define XSDT_SDT_UP7_(M) XSDT_SDT_UP6_(M) M(7)
#define XSDT_SDT_DOWN0_(M) M(0)
#define XSDT_SDT_DOWN1_(M) M(1) XSDT_SDT_DOWN0_(M)
#define XSDT_SDT_DOWN2_(M) M(2) XSDT_SDT_DOWN1_(M)
#define XSDT_SDT_DOWN3_(M) M(3) XSDT_SDT_DOWN2_(M)
#define XSDT_SDT_DOWN4_(M) M(4) XSDT_SDT_DOWN3_(M)
#define XSDT_SDT_DOWN5_(M) M(5) XSDT_SDT_DOWN4_(M)
#define XSDT_SDT_DOWN6_(M) M(6) XSDT_SDT_DOWN5_(M)
#define XSDT_SDT_DOWN7_(M) M(7) XSDT_SDT_DOWN6_(M)

/* The probe and each argument are converted once, into a 64-bit temporary,
 * before the asm (a pointer is 32 bits under x32 and ILP32). */
#define XSDT_SDT_PRESERVING_ASM_(n, ...)                                       \
  __asm__ __volatile__(XSDT_ARCH_SDT_CALL_ASM(n)                               \
                       :                                                       \
                       : __VA_ARGS__                                           \
                       : XSDT_ARCH_SDT_CLOBBERS)
#define XSDT_SDT_PRESERVING_CALL0_(p)                                          \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p);                              \
    XSDT_SDT_PRESERVING_ASM_(0, "r"(xsdt_tp_));                                \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL1_(p, a0)                                      \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0);             \
    XSDT_SDT_PRESERVING_ASM_(1, "r"(xsdt_tp_), "r"(xsdt_t0_));                 \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL2_(p, a0, a1)                                  \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1);                                                  \
    XSDT_SDT_PRESERVING_ASM_(2, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_));  \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL3_(p, a0, a1, a2)                              \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1), xsdt_t2_ = (a2);                                 \
    XSDT_SDT_PRESERVING_ASM_(3, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_),   \
                             "r"(xsdt_t2_));                                   \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL4_(p, a0, a1, a2, a3)                          \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1), xsdt_t2_ = (a2), xsdt_t3_ = (a3);                \
    XSDT_SDT_PRESERVING_ASM_(4, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_),   \
                             "r"(xsdt_t2_), "r"(xsdt_t3_));                    \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL5_(p, a0, a1, a2, a3, a4)                      \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1), xsdt_t2_ = (a2), xsdt_t3_ = (a3),                \
             xsdt_t4_ = (a4);                                                  \
    XSDT_SDT_PRESERVING_ASM_(5, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_),   \
                             "r"(xsdt_t2_), "r"(xsdt_t3_), "r"(xsdt_t4_));     \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL6_(p, a0, a1, a2, a3, a4, a5)                  \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1), xsdt_t2_ = (a2), xsdt_t3_ = (a3),                \
             xsdt_t4_ = (a4), xsdt_t5_ = (a5);                                 \
    XSDT_SDT_PRESERVING_ASM_(6, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_),   \
                             "r"(xsdt_t2_), "r"(xsdt_t3_), "r"(xsdt_t4_),      \
                             "r"(xsdt_t5_));                                   \
  } while (0)
#define XSDT_SDT_PRESERVING_CALL7_(p, a0, a1, a2, a3, a4, a5, a6)              \
  do {                                                                         \
    uint64_t xsdt_tp_ = (uint64_t)(uintptr_t)(p), xsdt_t0_ = (a0),             \
             xsdt_t1_ = (a1), xsdt_t2_ = (a2), xsdt_t3_ = (a3),                \
             xsdt_t4_ = (a4), xsdt_t5_ = (a5), xsdt_t6_ = (a6);                \
    XSDT_SDT_PRESERVING_ASM_(7, "r"(xsdt_tp_), "r"(xsdt_t0_), "r"(xsdt_t1_),   \
                             "r"(xsdt_t2_), "r"(xsdt_t3_), "r"(xsdt_t4_),      \
                             "r"(xsdt_t5_), "r"(xsdt_t6_));                    \
  } while (0)
#else
#define XSDT_SDT_CALL_(n) xsdt_sdt_fire##n
#endif

/* The NOP of the site, then its {site, target, probe} record. The record's
 * section is linked to the code (SHF_LINK_ORDER) and joins its COMDAT group,
 * so --gc-sections and COMDAT folding drop it together with the code. */
#define XSDT_SDT_SITE_ASM_(sym)                                                \
  XSDT_ARCH_SITE_ALIGN "\n" XSDT_ARCH_SITE_ENTER "\n"                          \
  XSDT_ARCH_JUMP_SITE_HEAD "\n"                                                \
  ".Lxsdt_sdt_site%=: " XSDT_ARCH_JUMP_SITE_NOP "\n"                          \
  XSDT_ARCH_SITE_LEAVE "\n"                                                    \
  ".pushsection xsdt_sdt_sites,\"ao?\",%%progbits,.Lxsdt_sdt_site%=\n"         \
  ".balign 4\n"                                                                \
  ".4byte .Lxsdt_sdt_site%= - .\n"                                             \
  ".4byte %l0 - .\n"                                                           \
  ".4byte " XSDT_STR_(sym) " - .\n"                                            \
  ".popsection\n"

#define XSDT_SDT_SITE_(label, sym, n, ...)                                     \
  do {                                                                         \
    __asm__ goto(XSDT_SDT_SITE_ASM_(sym) : : : : label);                       \
    if (0) {                                                                   \
    label:                                                                     \
      XSDT_SDT_COLD_LABEL_                                                     \
      XSDT_SDT_CALL_(n)(&sym, __VA_ARGS__);                                    \
    }                                                                          \
  } while (0)
#define XSDT_SDT_SITE0_(label, sym)                                            \
  do {                                                                         \
    __asm__ goto(XSDT_SDT_SITE_ASM_(sym) : : : : label);                       \
    if (0) {                                                                   \
    label:                                                                     \
      XSDT_SDT_COLD_LABEL_                                                     \
      XSDT_SDT_CALL_(0)(&sym);                                                 \
    }                                                                          \
  } while (0)

/* A label per site, unique in the translation unit: __COUNTER__ is expanded
 * once here and handed down. */
#define XSDT_SDT_LABEL_() XSDT_CAT_(xsdt_sdt_enabled_, __COUNTER__)
#define XSDT_SDT_FIRE_(n, prov, mod, func, name, ...)                          \
  XSDT_SDT_SITE_(XSDT_SDT_LABEL_(), XSDT_SDT_PROBE_SYM_(prov, mod, func, name), \
                 n, __VA_ARGS__)

#define XSDT_SDT_PROBE0(prov, mod, func, name)                                 \
  XSDT_SDT_SITE0_(XSDT_SDT_LABEL_(), XSDT_SDT_PROBE_SYM_(prov, mod, func, name))
#define XSDT_SDT_PROBE1(prov, mod, func, name, a0)                             \
  XSDT_SDT_FIRE_(1, prov, mod, func, name, XSDT_SDT_ARG_(a0))
#define XSDT_SDT_PROBE2(prov, mod, func, name, a0, a1)                         \
  XSDT_SDT_FIRE_(2, prov, mod, func, name, XSDT_SDT_ARG_(a0), XSDT_SDT_ARG_(a1))
#define XSDT_SDT_PROBE3(prov, mod, func, name, a0, a1, a2)                     \
  XSDT_SDT_FIRE_(3, prov, mod, func, name, XSDT_SDT_ARG_(a0),                  \
                 XSDT_SDT_ARG_(a1), XSDT_SDT_ARG_(a2))
#define XSDT_SDT_PROBE4(prov, mod, func, name, a0, a1, a2, a3)                 \
  XSDT_SDT_FIRE_(4, prov, mod, func, name, XSDT_SDT_ARG_(a0),                  \
                 XSDT_SDT_ARG_(a1), XSDT_SDT_ARG_(a2), XSDT_SDT_ARG_(a3))
#define XSDT_SDT_PROBE5(prov, mod, func, name, a0, a1, a2, a3, a4)             \
  XSDT_SDT_FIRE_(5, prov, mod, func, name, XSDT_SDT_ARG_(a0),                  \
                 XSDT_SDT_ARG_(a1), XSDT_SDT_ARG_(a2), XSDT_SDT_ARG_(a3),      \
                 XSDT_SDT_ARG_(a4))
#define XSDT_SDT_PROBE6(prov, mod, func, name, a0, a1, a2, a3, a4, a5)         \
  XSDT_SDT_FIRE_(6, prov, mod, func, name, XSDT_SDT_ARG_(a0),                  \
                 XSDT_SDT_ARG_(a1), XSDT_SDT_ARG_(a2), XSDT_SDT_ARG_(a3),      \
                 XSDT_SDT_ARG_(a4), XSDT_SDT_ARG_(a5))
#define XSDT_SDT_PROBE7(prov, mod, func, name, a0, a1, a2, a3, a4, a5, a6)     \
  XSDT_SDT_FIRE_(7, prov, mod, func, name, XSDT_SDT_ARG_(a0),                  \
                 XSDT_SDT_ARG_(a1), XSDT_SDT_ARG_(a2), XSDT_SDT_ARG_(a3),      \
                 XSDT_SDT_ARG_(a4), XSDT_SDT_ARG_(a5), XSDT_SDT_ARG_(a6))

/* ---- The FreeBSD spellings ---------------------------------------------- */

#if !defined(XSDT_SDT_NO_BARE_NAMES) && !defined(SDT_PROBE)
#define SDT_PROVIDER_DEFINE XSDT_SDT_PROVIDER_DEFINE
#define SDT_PROVIDER_DECLARE XSDT_SDT_PROVIDER_DECLARE
#define SDT_PROBE_DECLARE XSDT_SDT_PROBE_DECLARE
#define SDT_PROBE_DEFINE XSDT_SDT_PROBE_DEFINE
#define SDT_PROBE_DEFINE0 XSDT_SDT_PROBE_DEFINE0
#define SDT_PROBE_DEFINE1 XSDT_SDT_PROBE_DEFINE1
#define SDT_PROBE_DEFINE2 XSDT_SDT_PROBE_DEFINE2
#define SDT_PROBE_DEFINE3 XSDT_SDT_PROBE_DEFINE3
#define SDT_PROBE_DEFINE4 XSDT_SDT_PROBE_DEFINE4
#define SDT_PROBE_DEFINE5 XSDT_SDT_PROBE_DEFINE5
#define SDT_PROBE_DEFINE6 XSDT_SDT_PROBE_DEFINE6
#define SDT_PROBE_DEFINE7 XSDT_SDT_PROBE_DEFINE7
#define SDT_PROBE_DEFINE0_XLATE XSDT_SDT_PROBE_DEFINE0_XLATE
#define SDT_PROBE_DEFINE1_XLATE XSDT_SDT_PROBE_DEFINE1_XLATE
#define SDT_PROBE_DEFINE2_XLATE XSDT_SDT_PROBE_DEFINE2_XLATE
#define SDT_PROBE_DEFINE3_XLATE XSDT_SDT_PROBE_DEFINE3_XLATE
#define SDT_PROBE_DEFINE4_XLATE XSDT_SDT_PROBE_DEFINE4_XLATE
#define SDT_PROBE_DEFINE5_XLATE XSDT_SDT_PROBE_DEFINE5_XLATE
#define SDT_PROBE_DEFINE6_XLATE XSDT_SDT_PROBE_DEFINE6_XLATE
#define SDT_PROBE_DEFINE7_XLATE XSDT_SDT_PROBE_DEFINE7_XLATE
#define SDT_PROBE0 XSDT_SDT_PROBE0
#define SDT_PROBE1 XSDT_SDT_PROBE1
#define SDT_PROBE2 XSDT_SDT_PROBE2
#define SDT_PROBE3 XSDT_SDT_PROBE3
#define SDT_PROBE4 XSDT_SDT_PROBE4
#define SDT_PROBE5 XSDT_SDT_PROBE5
#define SDT_PROBE6 XSDT_SDT_PROBE6
#define SDT_PROBE7 XSDT_SDT_PROBE7
#endif

#endif /* XSDT_SDT_H */
