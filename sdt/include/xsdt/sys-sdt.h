/*
 * Drop-in replacement for SystemTap's <sys/sdt.h> (4.8): change
 *     #include <sys/sdt.h>   to   #include <xsdt/sys-sdt.h>
 * and keep STAP_PROBE, STAP_PROBE1..12, STAP_PROBEV, DTRACE_PROBE*,
 * STAP_PROBE_ASM and the feature macros programs test. The probes are
 * xsdt's: one patch-width NOP per site and argument specs in the portable
 * subset (see <xsdt/usdt.h>).
 *
 * As with sys/sdt.h, defining _SDT_HAS_SEMAPHORES before the include makes
 * every probe's note name the semaphore <provider>_<name>_semaphore, which
 * the program declares before the probe and defines (XSDT_SEMAPHORE does,
 * or a `dtrace -h` header).
 *
 * Every name sys/sdt.h 4.8 defines (each #define of sys/sdt.h and of the
 * sdt-config.h it includes, and its two non-macro names), and what this
 * header does with it:
 *
 * PROVIDED, SAME MEANING AND VALUE
 *   _SYS_SDT_H 1         its include guard: `#ifdef _SYS_SDT_H` finds the
 *                        API, and a later #include <sys/sdt.h> is skipped
 *                        (including sys/sdt.h first is an #error: two
 *                        definitions of every probe macro)
 *   STAP_PROBE, STAP_PROBE1..STAP_PROBE12, DTRACE_PROBE, DTRACE_PROBE1..12
 *   STAP_PROBEV          always (sys/sdt.h only with SDT_USE_VARIADIC: a
 *                        C99 variadic macro needs no opt-in)
 *   STAP_PROBE_ASM, STAP_PROBE_ASM_TEMPLATE, STAP_PROBE_ASM_OPERANDS
 *                        a site inside the program's own asm, with xsdt's
 *                        NOP and note; in C and C++ alike (sys/sdt.h's
 *                        work from C99 only). See "Probes in asm" below.
 *   _SDT_NOTE_NAME "stapsdt", _SDT_NOTE_TYPE 3, _SDT_ASM_ADDR (.8byte or
 *   .4byte), _SDT_ASM_SECTION_AUTOGROUP_SUPPORT 1, _SDT_ASM_AUTOGROUP "?"
 *                        xsdt's notes are exactly these
 *   STAP_SDT_ARG_CONSTRAINT
 *                        `nr` unless the program defined it first; a
 *                        program's own value is accepted and has no
 *                        effect: xsdt's constraints are per arch, chosen
 *                        so that every spec is portable (the values people
 *                        set, QEMU's g on arm, SPDK's nr on aarch64, work
 *                        around sys/sdt.h's operands)
 *   _SDT_STRINGIFY, _SDT_ARG_CONSTRAINT_STRING, _SDT_S, _SDT_ASM_1, _2, _3,
 *   _5, _SDT_ASM_STRING(_1), _SDT_ASM_SUBSTR(_1), _SDT_ASM_BLANK, _SDT_NARG,
 *   __SDT_NARG           token-to-asm-text and counting helpers, verbatim
 *   _SDT_ARGARRAY, _SDT_ARGSIZE, _SDT_ARGSIGNED, _SDT_ARGVAL
 *                        what the note records for an argument: decays to
 *                        a pointer, its size, its sign, its value. The
 *                        sign is the type's own: in C++ an enum with a
 *                        signed underlying type is signed, which sys/sdt.h
 *                        calls unsigned (so that its -1 reads 4294967295)
 *   _SDT_NOTE_SEMAPHORE_USE, _SDT_SEMAPHORE
 *                        with _SDT_HAS_SEMAPHORES: the probe needs its
 *                        semaphore declared (a compile-time check only; no
 *                        "m" operand, which would cost an address load),
 *                        and the note's semaphore word
 * PROVIDED WITH XSDT'S RULES (the same role; xsdt's site, operand
 * constraints and spec text)
 *   _SDT_PROBE, _SDT_PROBE_N, _SDT_ASM_BODY, _SDT_ASM_BODY_1, _2, _N, _N1,
 *   _N2, _SDT_ASM_BASE, _SDT_ASM_ARGS, _SDT_ASM_TEMPLATE_0..12,
 *   _SDT_ASM_OPERANDS_0..12, _SDT_ARG, _SDT_ARGFMT
 *                        the machinery of STAP_PROBE_ASM. The operand names
 *                        differ ([c_sdtN] and [a_sdtN], not [_SDT_SN] and
 *                        [_SDT_AN]): the arch backends build them.
 * NOT PROVIDED (sys/sdt.h-internal), and why
 *   _SDT_NOP             sys/sdt.h's 1..4-byte site instruction: xsdt's
 *                        site is the arch's patch-width NOP (riscv64 under
 *                        .option norvc), which one token cannot spell; a
 *                        program places sites with STAP_PROBE_ASM instead
 *   _SDT_ARGTMPL         one operand modifier per arch (%k, %I%); xsdt's
 *                        templates are per arch and need assembler
 *                        conditionals (xzr, zero, fp and ip rewrites)
 *   _SDT_DEF_MACROS, _SDT_UNDEF_MACROS
 *                        define and purge the assembler macros _SDT_SIGN,
 *                        _SDT_SIZE, _SDT_TYPE (and leave .altmacro on):
 *                        xsdt's _SDT_ARGFMT needs no assembler macro
 *   _SDT_ARGINTTYPE, __sdt_unsp (C); __sdt_type, __SDT_ALWAYS_SIGNED,
 *   __SDT_COND_SIGNED (C++)
 *                        sys/sdt.h's signedness machinery; xsdt's is the
 *                        type's own (std::is_signed, an enum's underlying
 *                        type), read through _SDT_ARGSIGNED
 *   the __ASSEMBLER__ branch (STAP_PROBEn in .S files, _SDT_DEPAREN_0..12
 *   and the `x;` forms of _SDT_ASM_*)
 *                        including this header from assembly source is an
 *                        #error: the arch backends give their site NOP as a
 *                        C string only. In C, sys/sdt.h does not define
 *                        _SDT_DEPAREN_* either.
 * INPUTS a program defines before the include
 *   _SDT_HAS_SEMAPHORES  honoured; SDT_USE_VARIADIC accepted (STAP_PROBEV
 *   is there anyway); STAP_SDT_ARG_CONSTRAINT see above. STAP_SDT_V1 and
 *   STAP_SDT_V2 (the note versions of sys/sdt.h 1.x) are neither read nor
 *   defined, by sys/sdt.h 4.8 or here: `#if defined STAP_SDT_V2` is false.
 *
 * Arguments: every scalar a C or C++ program passes works as with
 * XSDT_PROBE (register variables too, in any register: <xsdt/usdt.h>
 * copies them out of an SSE, FP or other register no spec may name), and
 * also C bit-fields (sys/sdt.h and XSDT_PROBE reject those
 * in C: sizeof and __typeof__ cannot take them): here each argument is
 * first a plain value, `((void)0, x)`, whose type gcc makes the narrowest
 * of 1, 2, 4, 8 bytes that holds the field and clang the field's declared
 * type, with the field's signedness. A type that no spec can describe is a
 * compile error that says so: structs and unions (sys/sdt.h passes their
 * bytes), _Complex and vectors, pointers to member functions, __int128 and
 * a long double wider than a double (sys/sdt.h emits 16-byte specs that no
 * consumer reads). A long double is accepted where it is a double (armhf),
 * a pointer to data member as its offset (its ABI representation, as
 * sys/sdt.h does), nullptr as 0. A _Bool or bool goes to the asm as an
 * unsigned char of the same value: clang hands a bool operand over as one
 * bit whose register's other bits are left as they were (ppc64el: the
 * spec 1@3 read 0xf9 for a true computed from -7 & 1).
 */
#ifndef XSDT_SYS_SDT_H
#define XSDT_SYS_SDT_H

#ifdef __ASSEMBLER__
#error "xsdt: <xsdt/sys-sdt.h> has no assembler-source (.S) form: put the probe in C (STAP_PROBEn) or in an asm statement (STAP_PROBE_ASM)"
#else

#ifdef _SYS_SDT_H
#error "xsdt: SystemTap's <sys/sdt.h> was included before <xsdt/sys-sdt.h>: include only one of them"
#endif
#define _SYS_SDT_H 1

#include <xsdt/usdt.h>

/* ---- Constants ------------------------------------------------------------ */

#define _SDT_NOTE_NAME "stapsdt"
#define _SDT_NOTE_TYPE 3
#define _SDT_ASM_SECTION_AUTOGROUP_SUPPORT 1
#define _SDT_ASM_AUTOGROUP "?"
#ifdef __LP64__
#define _SDT_ASM_ADDR .8byte
#else
#define _SDT_ASM_ADDR .4byte
#endif

#ifndef STAP_SDT_ARG_CONSTRAINT
#define STAP_SDT_ARG_CONSTRAINT nr
#endif
#define _SDT_STRINGIFY(x) #x
#define _SDT_ARG_CONSTRAINT_STRING(x) _SDT_STRINGIFY(x)

/* ---- Assembler text from tokens (as sys/sdt.h) --------------------------- */

#define _SDT_S(x) #x
#define _SDT_ASM_1(x) _SDT_S(x) "\n"
#define _SDT_ASM_2(a, b) _SDT_S(a) "," _SDT_S(b) "\n"
#define _SDT_ASM_3(a, b, c) _SDT_S(a) "," _SDT_S(b) "," _SDT_S(c) "\n"
#define _SDT_ASM_5(a, b, c, d, e)                                              \
  _SDT_S(a) "," _SDT_S(b) "," _SDT_S(c) "," _SDT_S(d) "," _SDT_S(e) "\n"
#define _SDT_ASM_STRING_1(x) _SDT_ASM_1(.asciz #x)
#define _SDT_ASM_SUBSTR_1(x) _SDT_ASM_1(.ascii #x)
#define _SDT_ASM_STRING(x) _SDT_ASM_STRING_1(x)
#define _SDT_ASM_SUBSTR(x) _SDT_ASM_SUBSTR_1(x)
#define _SDT_ASM_BLANK _SDT_ASM_SUBSTR(\x20)

/* Counts its arguments after a leading 0: _SDT_NARG(0, a, b) is 2. */
#define _SDT_NARG(...)                                                         \
  __SDT_NARG(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define __SDT_NARG(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N,  \
                   ...)                                                        \
  N

/* ---- Arguments -------------------------------------------------------------
 * XSDT_COMPAT_ARG_(x): the argument as the probe receives it.
 * XSDT_COMPAT_CHECK_(x): a statement that fails to compile, naming the
 * reason, for a type no spec can describe.
 * XSDT_COMPAT_REQUIRE_(cond, name): 0, or (as an expression, also inside an
 * asm operand list) a compile error naming `name`. */
#ifdef __cplusplus
#include <type_traits>
namespace xsdt_compat_detail {
/* value lives in a base: a failed static_assert must be the only error. */
struct checked {
  enum { value = 0 };
};
template <class T> struct is_int128 : std::false_type {};
#ifdef __SIZEOF_INT128__
/* Not an integer type to std:: in strict -std=c++NN: its size is what no
 * spec can describe, as in C. */
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;
template <> struct is_int128<int128> : std::true_type {};
template <> struct is_int128<uint128> : std::true_type {};
#endif
template <class T> struct arg_check : checked {
  typedef typename std::decay<T>::type type;
  static const bool scalar = (std::is_scalar<type>::value ||
                              is_int128<type>::value) &&
                             !std::is_member_function_pointer<type>::value;
  static const bool sized = sizeof(type) == 1 || sizeof(type) == 2 ||
                            sizeof(type) == 4 || sizeof(type) == 8;
  static_assert(scalar,
                "xsdt: a probe argument must be an integer, enum, bool, "
                "pointer, array, function or floating-point value; a "
                "struct, union, _Complex, vector or pointer to member "
                "function has no argument spec");
  static_assert(!scalar || sized,
                "xsdt: a probe argument must be 1, 2, 4 or 8 bytes; "
                "__int128 and a long double wider than a double have no "
                "argument spec (pass their halves as 64-bit values)");
};
/* STAP_PROBE_ASM_OPERANDS: the target takes only word-sized values in an
 * operand list, or none at all (see "Probes in asm"). */
template <class T, bool word_only, bool none>
struct asm_arg_check : checked {
  typedef typename std::decay<T>::type type;
  static_assert(!none, "xsdt: STAP_PROBE_ASM_OPERANDS is not available on "
                       "this target: its register operands need the "
                       "site's clobbers, which only the asm statement "
                       "can declare; use STAP_PROBEn beside the asm, or "
                       "name the operands in STAP_PROBE_ASM's text");
  static_assert(!word_only || (!std::is_floating_point<type>::value &&
                               sizeof(type) <= sizeof(long)),
                "xsdt: on this target STAP_PROBE_ASM_OPERANDS takes only "
                "integers and pointers of at most a word: a 64-bit or "
                "floating-point value needs a stack slot, which an asm "
                "operand list cannot declare; use STAP_PROBEn");
};
} // namespace xsdt_compat_detail
/* A bool as an unsigned char (see the opening comment). */
#define XSDT_COMPAT_BOOL_AS_BYTE_(x, otherwise) XSDT_BOOL_AS_BYTE_(x, otherwise)
/* A pointer to data member as its bits (XSDT_MEMBER_AS_BITS_). */
#define XSDT_COMPAT_ARG_(x)                                                    \
  XSDT_COMPAT_BOOL_AS_BYTE_(x, XSDT_MEMBER_AS_BITS_(x, x))
#define XSDT_COMPAT_CHECK_(x)                                                  \
  (void)::xsdt_compat_detail::arg_check<decltype((x))>::value;
#else
/* __builtin_classify_type: integer 1, char 2, enum 3, bool 4, pointer 5,
 * real 8, function 10, array 14 (gcc and clang report arrays, functions
 * and string literals as pointers, bool, char and enums as integers). */
#define XSDT_COMPAT_SCALAR_(x)                                                 \
  XSDT_CLASS_IN_(x, 1UL << 1 | 1UL << 2 | 1UL << 3 | 1UL << 4 | 1UL << 5 |     \
                        1UL << 8 | 1UL << 10 | 1UL << 14)
#define XSDT_COMPAT_SIZED_(x) XSDT_ARG_SIZE_OK_(((void)0, (x)))
#define XSDT_COMPAT_REQUIRE_(cond, name)                                       \
  (0 * sizeof(struct { int name : (cond) ? 1 : -1; }))
/* The comma makes a bit-field (and anything else) a plain value, which
 * __typeof__ accepts; an argument that fails the check becomes 0, so that
 * the check's error is the only one. */
#define XSDT_COMPAT_SCALAR_ARG_(x)                                             \
  __builtin_choose_expr(XSDT_COMPAT_SCALAR_(x) && XSDT_COMPAT_SIZED_(x),       \
                        ((void)0, (x)), 0)
/* A _Bool as an unsigned char (see the opening comment). x is the
 * argument as written, not XSDT_COMPAT_SCALAR_ARG_(x): the bool test takes
 * any type, and the argument would be written once more per use. */
#define XSDT_COMPAT_BOOL_AS_BYTE_(x, otherwise) XSDT_BOOL_AS_BYTE_(x, otherwise)
#define XSDT_COMPAT_ARG_(x)                                                    \
  XSDT_COMPAT_BOOL_AS_BYTE_(x, XSDT_COMPAT_SCALAR_ARG_(x))
#define XSDT_COMPAT_CHECK_(x)                                                  \
  (void)(XSDT_COMPAT_REQUIRE_(                                                 \
             XSDT_COMPAT_SCALAR_(x),                                           \
             xsdt_error_probe_argument_must_be_an_integer_enum_bool_pointer_array_function_or_floating_point_value) + \
         XSDT_COMPAT_REQUIRE_(                                                 \
             !XSDT_COMPAT_SCALAR_(x) || XSDT_COMPAT_SIZED_(x),                 \
             xsdt_error_probe_argument_must_be_1_2_4_or_8_bytes));
#endif

#define _SDT_ARGARRAY(x)                                                       \
  (__builtin_classify_type(x) == 14 || __builtin_classify_type(x) == 5)
#define _SDT_ARGSIZE(x) XSDT_ARG_SIZE_(XSDT_COMPAT_ARG_(x))
#define _SDT_ARGSIGNED(x) XSDT_ARG_SIGNED_(XSDT_COMPAT_ARG_(x))
#define _SDT_ARGVAL(x) (x)

/* ---- STAP_PROBEn, STAP_PROBEV, DTRACE_PROBEn --------------------------------
 */

#ifdef _SDT_HAS_SEMAPHORES
/* The semaphore must be declared before the probe, as with sys/sdt.h; only
 * the note names it. */
#define _SDT_NOTE_SEMAPHORE_USE(provider, name)                                \
  (void)sizeof(provider##_##name##_semaphore)
#define XSDT_COMPAT_SITE_(...) XSDT_PROBE_SEMAPHORED_(__VA_ARGS__)
#define _SDT_SEMAPHORE(p, n) _SDT_ASM_1(_SDT_ASM_ADDR p##_##n##_semaphore)
#else
#define _SDT_NOTE_SEMAPHORE_USE(provider, name)
#define XSDT_COMPAT_SITE_(...) XSDT_PROBE(__VA_ARGS__)
#define _SDT_SEMAPHORE(p, n) _SDT_ASM_1(_SDT_ASM_ADDR 0)
#endif

#define XSDT_COMPAT_A_(x) XSDT_COMPAT_ARG_(x)
#define XSDT_COMPAT_C_(x) XSDT_COMPAT_CHECK_(x)

#define STAP_PROBE(p, n)                                                       \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_SITE_(p, n);                                                   \
  } while (0)
#define STAP_PROBE1(p, n, a1)                                                  \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1)                                                         \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1));                               \
  } while (0)
#define STAP_PROBE2(p, n, a1, a2)                                              \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2)                                      \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2));           \
  } while (0)
#define STAP_PROBE3(p, n, a1, a2, a3)                                          \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3));                                     \
  } while (0)
#define STAP_PROBE4(p, n, a1, a2, a3, a4)                                      \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4)                                                         \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4));                 \
  } while (0)
#define STAP_PROBE5(p, n, a1, a2, a3, a4, a5)                                  \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5)                                      \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5));                                     \
  } while (0)
#define STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                              \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6));                 \
  } while (0)
#define STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                          \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7)                                                         \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7));                                     \
  } while (0)
#define STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)                      \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7) XSDT_COMPAT_C_(a8)                                      \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7), XSDT_COMPAT_A_(a8));                 \
  } while (0)
#define STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)                  \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7) XSDT_COMPAT_C_(a8) XSDT_COMPAT_C_(a9)                   \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7), XSDT_COMPAT_A_(a8),                  \
                      XSDT_COMPAT_A_(a9));                                     \
  } while (0)
#define STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)            \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7) XSDT_COMPAT_C_(a8) XSDT_COMPAT_C_(a9)                   \
    XSDT_COMPAT_C_(a10)                                                        \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7), XSDT_COMPAT_A_(a8),                  \
                      XSDT_COMPAT_A_(a9), XSDT_COMPAT_A_(a10));                \
  } while (0)
#define STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)       \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7) XSDT_COMPAT_C_(a8) XSDT_COMPAT_C_(a9)                   \
    XSDT_COMPAT_C_(a10) XSDT_COMPAT_C_(a11)                                    \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7), XSDT_COMPAT_A_(a8),                  \
                      XSDT_COMPAT_A_(a9), XSDT_COMPAT_A_(a10),                 \
                      XSDT_COMPAT_A_(a11));                                    \
  } while (0)
#define STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)  \
  do {                                                                         \
    _SDT_NOTE_SEMAPHORE_USE(p, n);                                             \
    XSDT_COMPAT_C_(a1) XSDT_COMPAT_C_(a2) XSDT_COMPAT_C_(a3)                   \
    XSDT_COMPAT_C_(a4) XSDT_COMPAT_C_(a5) XSDT_COMPAT_C_(a6)                   \
    XSDT_COMPAT_C_(a7) XSDT_COMPAT_C_(a8) XSDT_COMPAT_C_(a9)                   \
    XSDT_COMPAT_C_(a10) XSDT_COMPAT_C_(a11) XSDT_COMPAT_C_(a12)                \
    XSDT_COMPAT_SITE_(p, n, XSDT_COMPAT_A_(a1), XSDT_COMPAT_A_(a2),            \
                      XSDT_COMPAT_A_(a3), XSDT_COMPAT_A_(a4),                  \
                      XSDT_COMPAT_A_(a5), XSDT_COMPAT_A_(a6),                  \
                      XSDT_COMPAT_A_(a7), XSDT_COMPAT_A_(a8),                  \
                      XSDT_COMPAT_A_(a9), XSDT_COMPAT_A_(a10),                 \
                      XSDT_COMPAT_A_(a11), XSDT_COMPAT_A_(a12));               \
  } while (0)

/* STAP_PROBEV(provider, name, args...): 0..12 arguments. */
#define STAP_PROBEV(...)                                                       \
  XSDT_CAT_(XSDT_COMPAT_PROBEV_, XSDT_COUNT_(__VA_ARGS__))(__VA_ARGS__)
#define XSDT_COMPAT_PROBEV_2 STAP_PROBE
#define XSDT_COMPAT_PROBEV_3 STAP_PROBE1
#define XSDT_COMPAT_PROBEV_4 STAP_PROBE2
#define XSDT_COMPAT_PROBEV_5 STAP_PROBE3
#define XSDT_COMPAT_PROBEV_6 STAP_PROBE4
#define XSDT_COMPAT_PROBEV_7 STAP_PROBE5
#define XSDT_COMPAT_PROBEV_8 STAP_PROBE6
#define XSDT_COMPAT_PROBEV_9 STAP_PROBE7
#define XSDT_COMPAT_PROBEV_10 STAP_PROBE8
#define XSDT_COMPAT_PROBEV_11 STAP_PROBE9
#define XSDT_COMPAT_PROBEV_12 STAP_PROBE10
#define XSDT_COMPAT_PROBEV_13 STAP_PROBE11
#define XSDT_COMPAT_PROBEV_14 STAP_PROBE12

/* _SDT_PROBE(provider, name, n, (args...)), as STAP_PROBEn expands in
 * sys/sdt.h; _SDT_PROBE_N(provider, name, n, args...). An empty () is
 * never handed to a variadic macro (-Wpedantic rejects that). */
#define _SDT_PROBE(provider, name, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_##n(provider, name, arglist)
#define _SDT_PROBE_N(provider, name, N, ...)                                   \
  _SDT_PROBE(provider, name, N, (__VA_ARGS__))
#define XSDT_COMPAT_UNPAREN_(...) __VA_ARGS__
#define XSDT_COMPAT_APPLY_(macro, args) macro args
#define XSDT_COMPAT_SDT_PROBE_WITH_(macro, p, n, arglist)                      \
  XSDT_COMPAT_APPLY_(macro, (p, n, XSDT_COMPAT_UNPAREN_ arglist))
#define XSDT_COMPAT_SDT_PROBE_0(p, n, arglist) STAP_PROBE(p, n)
#define XSDT_COMPAT_SDT_PROBE_1(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE1, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_2(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE2, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_3(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE3, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_4(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE4, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_5(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE5, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_6(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE6, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_7(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE7, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_8(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE8, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_9(p, n, arglist)                                 \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE9, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_10(p, n, arglist)                                \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE10, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_11(p, n, arglist)                                \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE11, p, n, arglist)
#define XSDT_COMPAT_SDT_PROBE_12(p, n, arglist)                                \
  XSDT_COMPAT_SDT_PROBE_WITH_(STAP_PROBE12, p, n, arglist)

#define DTRACE_PROBE(p, n) STAP_PROBE(p, n)
#define DTRACE_PROBE1(p, n, a1) STAP_PROBE1(p, n, a1)
#define DTRACE_PROBE2(p, n, a1, a2) STAP_PROBE2(p, n, a1, a2)
#define DTRACE_PROBE3(p, n, a1, a2, a3) STAP_PROBE3(p, n, a1, a2, a3)
#define DTRACE_PROBE4(p, n, a1, a2, a3, a4) STAP_PROBE4(p, n, a1, a2, a3, a4)
#define DTRACE_PROBE5(p, n, a1, a2, a3, a4, a5)                                \
  STAP_PROBE5(p, n, a1, a2, a3, a4, a5)
#define DTRACE_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                            \
  STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6)
#define DTRACE_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                        \
  STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)
#define DTRACE_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)                    \
  STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)
#define DTRACE_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)                \
  STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define DTRACE_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)          \
  STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define DTRACE_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)     \
  STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define DTRACE_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

/* ---- Probes in asm -----------------------------------------------------------
 *
 *   asm ("before\n"
 *        STAP_PROBE_ASM(provider, name, -4@%eax 8@4(%esi))
 *        "after");
 *   asm ("insn %0\n"
 *        STAP_PROBE_ASM(provider, name, STAP_PROBE_ASM_TEMPLATE(2))
 *        : : "r"(x), STAP_PROBE_ASM_OPERANDS(2, a, b));
 *
 * The site is xsdt's (the arch's patch-width NOP; .balign 4 first where the
 * arch needs it), its note linked to it like every xsdt note. The text
 * holds no `%` of its own, so it works in basic and extended asm, and its
 * labels are made by an assembler macro (\@), so it may appear twice in one
 * asm and the asm may be duplicated by the compiler.
 *
 * Written argument text (the first form) is copied into the note as it is:
 * as with sys/sdt.h, the program answers for it. STAP_PROBE_ASM_TEMPLATE
 * and STAP_PROBE_ASM_OPERANDS give xsdt's specs: each argument is a
 * register operand with the arch's constraint and template (a constant is
 * an immediate); a floating-point value goes as its bit pattern. An
 * argument that is a register variable keeps its register (an entry and an
 * exit probe in one asm then see the register as it is at each site),
 * except a floating-point one, which is copied out of its FP register.
 * Where the arch puts 64-bit and floating-point values in stack slots
 * (i386, armhf) an operand list cannot declare them: such an argument is a
 * compile error, as is every argument where the arch's site clobbers
 * registers (armhf in ARM state). */

#if defined(XSDT_ARCH_ARG_MEM_ASM) || defined(XSDT_ARCH_ARG_SLOT_BASE_ASM)
#define XSDT_COMPAT_ASM_WORD_ONLY_ 1
#define XSDT_COMPAT_ASM_CONSTRAINT_ XSDT_ARCH_ARG_REG_CONSTRAINT
#else
#define XSDT_COMPAT_ASM_WORD_ONLY_ 0
#define XSDT_COMPAT_ASM_CONSTRAINT_ XSDT_ARCH_ARG_CONSTRAINT
#endif
#ifdef XSDT_ARCH_ARG_CODE_ASM
#define XSDT_COMPAT_ASM_NONE_ 1
#else
#define XSDT_COMPAT_ASM_NONE_ 0
#endif

#ifdef __cplusplus
#define XSDT_COMPAT_ASM_CHECK_(x)                                              \
  (::xsdt_compat_detail::arg_check<decltype((x))>::value +                     \
   ::xsdt_compat_detail::asm_arg_check<decltype((x)),                          \
                                       XSDT_COMPAT_ASM_WORD_ONLY_,             \
                                       XSDT_COMPAT_ASM_NONE_>::value)
#define XSDT_COMPAT_ASM_CODE_(x) XSDT_ARG_CODE_(x)
#ifdef __clang__
/* The integer itself (a register variable keeps its register). */
#define XSDT_COMPAT_ASM_VALUE_(x)                                              \
  __builtin_choose_expr(XSDT_ARG_FLOAT_(x), XSDT_FLOAT_BITS_(x),               \
                        XSDT_COMPAT_BOOL_AS_BYTE_(x, (x)))
#else
/* gcc moves a floating-point value to a general register for "r" itself. */
#define XSDT_COMPAT_ASM_VALUE_(x) (x)
#endif
#else
#define XSDT_COMPAT_ASM_CHECK_(x)                                              \
  (XSDT_COMPAT_REQUIRE_(                                                       \
       XSDT_COMPAT_SCALAR_(x),                                                 \
       xsdt_error_probe_argument_must_be_an_integer_enum_bool_pointer_array_function_or_floating_point_value) + \
   XSDT_COMPAT_REQUIRE_(!XSDT_COMPAT_SCALAR_(x) || XSDT_COMPAT_SIZED_(x),      \
                        xsdt_error_probe_argument_must_be_1_2_4_or_8_bytes) +  \
   XSDT_COMPAT_REQUIRE_(                                                       \
       !XSDT_COMPAT_ASM_NONE_,                                                 \
       xsdt_error_STAP_PROBE_ASM_OPERANDS_is_not_available_on_this_target_its_operands_need_the_site_clobbers_use_STAP_PROBEn) + \
   XSDT_COMPAT_REQUIRE_(                                                       \
       !XSDT_COMPAT_ASM_WORD_ONLY_ ||                                          \
           (!XSDT_ARG_FLOAT_(x) &&                                             \
            XSDT_ARG_SIZE_(XSDT_COMPAT_ARG_(x)) <= (int)sizeof(long)),         \
       xsdt_error_on_this_target_STAP_PROBE_ASM_OPERANDS_takes_no_64_bit_or_floating_point_value_use_STAP_PROBEn))
#define XSDT_COMPAT_ASM_CODE_(x) XSDT_ARG_CODE_(XSDT_COMPAT_ARG_(x))
/* The integer itself (a register variable keeps its register), or a
 * float's bits. */
#define XSDT_COMPAT_ASM_VALUE_(x)                                              \
  __builtin_choose_expr(XSDT_COMPAT_SCALAR_(x) && XSDT_COMPAT_SIZED_(x),       \
                        XSDT_COMPAT_BOOL_AS_BYTE_(x, XSDT_FLOAT_BITS_(x)), 0)
#endif

/* Argument no of STAP_PROBE_ASM_OPERANDS: operands [c_sdtNO] (size, sign
 * and float, for the assembler to spell) and [a_sdtNO] (the value). */
#define _SDT_ARG(n, x)                                                         \
  [c_sdt##n] "n"(XSDT_COMPAT_ASM_CODE_(x) + XSDT_COMPAT_ASM_CHECK_(x)),        \
      [a_sdt##n] XSDT_COMPAT_ASM_CONSTRAINT_(XSDT_COMPAT_ASM_VALUE_(x))
#define _SDT_ARGFMT(no)                                                        \
  XSDT_ARG_SIZE_TEXT_(_sdt##no) XSDT_ARCH_ARG_ASM(_sdt##no)

#define _SDT_ASM_ARGS(n) _SDT_ASM_TEMPLATE_##n
#define _SDT_ASM_TEMPLATE_0 /* no arguments */
#define _SDT_ASM_TEMPLATE_1 _SDT_ARGFMT(1)
#define _SDT_ASM_TEMPLATE_2 _SDT_ASM_TEMPLATE_1 _SDT_ASM_BLANK _SDT_ARGFMT(2)
#define _SDT_ASM_TEMPLATE_3 _SDT_ASM_TEMPLATE_2 _SDT_ASM_BLANK _SDT_ARGFMT(3)
#define _SDT_ASM_TEMPLATE_4 _SDT_ASM_TEMPLATE_3 _SDT_ASM_BLANK _SDT_ARGFMT(4)
#define _SDT_ASM_TEMPLATE_5 _SDT_ASM_TEMPLATE_4 _SDT_ASM_BLANK _SDT_ARGFMT(5)
#define _SDT_ASM_TEMPLATE_6 _SDT_ASM_TEMPLATE_5 _SDT_ASM_BLANK _SDT_ARGFMT(6)
#define _SDT_ASM_TEMPLATE_7 _SDT_ASM_TEMPLATE_6 _SDT_ASM_BLANK _SDT_ARGFMT(7)
#define _SDT_ASM_TEMPLATE_8 _SDT_ASM_TEMPLATE_7 _SDT_ASM_BLANK _SDT_ARGFMT(8)
#define _SDT_ASM_TEMPLATE_9 _SDT_ASM_TEMPLATE_8 _SDT_ASM_BLANK _SDT_ARGFMT(9)
#define _SDT_ASM_TEMPLATE_10 _SDT_ASM_TEMPLATE_9 _SDT_ASM_BLANK _SDT_ARGFMT(10)
#define _SDT_ASM_TEMPLATE_11 _SDT_ASM_TEMPLATE_10 _SDT_ASM_BLANK _SDT_ARGFMT(11)
#define _SDT_ASM_TEMPLATE_12 _SDT_ASM_TEMPLATE_11 _SDT_ASM_BLANK _SDT_ARGFMT(12)

#define _SDT_ASM_OPERANDS_0() [__sdt_dummy] "g"(0)
#define _SDT_ASM_OPERANDS_1(a1) _SDT_ARG(1, a1)
#define _SDT_ASM_OPERANDS_2(a1, a2) _SDT_ASM_OPERANDS_1(a1), _SDT_ARG(2, a2)
#define _SDT_ASM_OPERANDS_3(a1, a2, a3)                                        \
  _SDT_ASM_OPERANDS_2(a1, a2), _SDT_ARG(3, a3)
#define _SDT_ASM_OPERANDS_4(a1, a2, a3, a4)                                    \
  _SDT_ASM_OPERANDS_3(a1, a2, a3), _SDT_ARG(4, a4)
#define _SDT_ASM_OPERANDS_5(a1, a2, a3, a4, a5)                                \
  _SDT_ASM_OPERANDS_4(a1, a2, a3, a4), _SDT_ARG(5, a5)
#define _SDT_ASM_OPERANDS_6(a1, a2, a3, a4, a5, a6)                            \
  _SDT_ASM_OPERANDS_5(a1, a2, a3, a4, a5), _SDT_ARG(6, a6)
#define _SDT_ASM_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7)                        \
  _SDT_ASM_OPERANDS_6(a1, a2, a3, a4, a5, a6), _SDT_ARG(7, a7)
#define _SDT_ASM_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8)                    \
  _SDT_ASM_OPERANDS_7(a1, a2, a3, a4, a5, a6, a7), _SDT_ARG(8, a8)
#define _SDT_ASM_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9)                \
  _SDT_ASM_OPERANDS_8(a1, a2, a3, a4, a5, a6, a7, a8), _SDT_ARG(9, a9)
#define _SDT_ASM_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)          \
  _SDT_ASM_OPERANDS_9(a1, a2, a3, a4, a5, a6, a7, a8, a9), _SDT_ARG(10, a10)
#define _SDT_ASM_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)     \
  _SDT_ASM_OPERANDS_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10),               \
      _SDT_ARG(11, a11)
#define _SDT_ASM_OPERANDS_12(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  _SDT_ASM_OPERANDS_11(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11),          \
      _SDT_ARG(12, a12)

/* The site and its note: `pack_args args` is the arguments' text. The text
 * holds no `%` (it must read the same in basic and in extended asm), and
 * its labels are numbered by the assembler, as a site may appear twice in
 * one asm statement and the compiler may duplicate the statement: a
 * counter symbol, incremented at each site, is spelled in base 4 by a
 * recursive macro (xsdt_num_), which hands the digits to the macro that
 * holds the site and its note (xsdt_site_). Neither \@ (clang restarts it
 * in every asm statement) nor altmacro's %expr (a `%`) would do. The names
 * are short: with 12 arguments the text must stay under the 4095
 * characters of -Woverlength-strings. */
#define _SDT_ASM_BODY(provider, name, pack_args, ...)                         \
  XSDT_COMPAT_ASM_BODY_(provider, name, pack_args,                             \
                        XSDT_COMPAT_FIRST_(__VA_ARGS__, ~))
/* (sys/sdt.h's _SDT_ASM_BODY(provider, name, pack_args, args, ...) hands an
 * empty variadic part on, which -Wpedantic rejects.) */
#define XSDT_COMPAT_FIRST_(a, ...) a
#define XSDT_COMPAT_ASM_BODY_(provider, name, pack_args, args)                 \
  _SDT_ASM_1(.ifndef .Lxsdt_n)                                                 \
  _SDT_ASM_2(.set .Lxsdt_n, 0)                                                 \
  _SDT_ASM_1(.endif)                                                           \
  _SDT_ASM_2(.set .Lxsdt_n, .Lxsdt_n + 1)                                      \
  _SDT_ASM_1(.macro xsdt_site_ k)                                              \
  XSDT_ARCH_SITE_ALIGN "\n" XSDT_ARCH_SITE_ENTER "\n"                          \
  ".Lxsdt_s\\k: " XSDT_ARCH_SITE_NOP "\n" XSDT_ARCH_SITE_LEAVE "\n"            \
  ".pushsection .note.stapsdt,\"o" _SDT_ASM_AUTOGROUP                          \
  "\",\"note\",.Lxsdt_s\\k\n"                                                \
  _SDT_ASM_1(.balign 4)                                                        \
  _SDT_ASM_3(.4byte 992f-991f, 994f-993f, _SDT_NOTE_TYPE)                      \
  _SDT_ASM_1(991: .asciz _SDT_NOTE_NAME)                                       \
  _SDT_ASM_1(992: .balign 4)                                                   \
  "993: " XSDT_ARCH_ADDR " .Lxsdt_s\\k\n"                                      \
  XSDT_ARCH_ADDR " _.stapsdt.base\n"                                           \
  _SDT_SEMAPHORE(provider, name)                                               \
  _SDT_ASM_STRING(provider)                                                    \
  _SDT_ASM_STRING(name)                                                        \
  pack_args args                                                               \
  _SDT_ASM_SUBSTR(\x00)                                                        \
  _SDT_ASM_1(994: .balign 4)                                                   \
  _SDT_ASM_1(.popsection)                                                      \
  _SDT_ASM_1(.endm)                                                            \
  ".macro xsdt_num_ v, s\n"                                                    \
  ".if (\\v) == 0\n"                                                           \
  "xsdt_site_ \\s\n"                                                           \
  ".elseif ((\\v) & 3) == 0\n"                                                 \
  "xsdt_num_ (\\v)>>2, 0\\s\n"                                                 \
  ".elseif ((\\v) & 3) == 1\n"                                                 \
  "xsdt_num_ (\\v)>>2, 1\\s\n"                                                 \
  ".elseif ((\\v) & 3) == 2\n"                                                 \
  "xsdt_num_ (\\v)>>2, 2\\s\n"                                                 \
  ".elseif ((\\v) & 3) == 3\n"                                                 \
  "xsdt_num_ (\\v)>>2, 3\\s\n"                                                 \
  ".endif\n"                                                                   \
  ".endm\n"                                                                    \
  "xsdt_num_ .Lxsdt_n, _\n"                                                    \
  _SDT_ASM_1(.purgem xsdt_num_)                                                \
  _SDT_ASM_1(.purgem xsdt_site_)

/* The base section the notes' second word points at (xsdt's flags: "aGR",
 * retained). */
#define _SDT_ASM_BASE                                                          \
  _SDT_ASM_1(.ifndef _.stapsdt.base)                                           \
  _SDT_ASM_5(.pushsection .stapsdt.base, "aGR", "progbits", .stapsdt.base,    \
             comdat)                                                           \
  _SDT_ASM_1(.weak _.stapsdt.base)                                             \
  _SDT_ASM_1(.hidden _.stapsdt.base)                                           \
  _SDT_ASM_1(_.stapsdt.base: .space 1)                                         \
  _SDT_ASM_2(.size _.stapsdt.base, 1)                                          \
  _SDT_ASM_1(.popsection)                                                      \
  _SDT_ASM_1(.endif)

/* STAP_PROBE_ASM(provider, name, text) or (provider, name,
 * STAP_PROBE_ASM_TEMPLATE(n)): the template form is two macro arguments. */
#define _SDT_ASM_BODY_1(p, n, ...)                                             \
  _SDT_ASM_BODY(p, n, _SDT_ASM_SUBSTR, (__VA_ARGS__))
#define _SDT_ASM_BODY_2(p, n, ...) _SDT_ASM_BODY(p, n, /* template */, __VA_ARGS__)
#define _SDT_ASM_BODY_N2(p, n, no, ...) _SDT_ASM_BODY_##no(p, n, __VA_ARGS__)
#define _SDT_ASM_BODY_N1(p, n, no, ...) _SDT_ASM_BODY_N2(p, n, no, __VA_ARGS__)
#define _SDT_ASM_BODY_N(p, n, ...)                                             \
  _SDT_ASM_BODY_N1(p, n, _SDT_NARG(0, __VA_ARGS__), __VA_ARGS__)

#define STAP_PROBE_ASM(provider, name, ...)                                    \
  _SDT_ASM_BODY_N(provider, name, __VA_ARGS__) _SDT_ASM_BASE
#define STAP_PROBE_ASM_OPERANDS(n, ...) _SDT_ASM_OPERANDS_##n(__VA_ARGS__)
#define STAP_PROBE_ASM_TEMPLATE(n)                                             \
  _SDT_ASM_TEMPLATE_##n, "use _SDT_ASM_TEMPLATE_"

#endif /* !__ASSEMBLER__ */
#endif /* XSDT_SYS_SDT_H */
