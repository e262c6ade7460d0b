/*
 * xsdt: portable stapsdt-compatible USDT probes (C99+ and C++11+, gcc and
 * clang).
 *
 *   XSDT_PROBE(provider, name, args...)          a probe with 0..12 arguments
 *   XSDT_SEMAPHORE(provider, name)               define the probe's semaphore
 *   XSDT_SEMAPHORE_DECLARE(provider, name)       declare it in another file
 *   XSDT_PROBE_ENABLED(provider, name)           is a tracer attached?
 *   XSDT_PROBE_GUARDED(provider, name, args...)  evaluate the args only then
 *
 * Every probe emits one NOP of the architecture's patch width at the probe
 * site and one stapsdt v3 note (type 3, owner "stapsdt") that records the
 * site, the `_.stapsdt.base` address, the semaphore and one argument spec
 * per argument in the portable subset: register, register + displacement,
 * or immediate. The per-architecture pieces (NOP, operand constraint and
 * register naming) live in arches/<arch>/include/xsdt/arch/usdt.h, which the
 * build puts on the include path for the target.
 *
 * Floating-point arguments are passed as their IEEE-754 bit pattern in an
 * integer register (or, on i386 for doubles, in a stack slot), described as
 * an unsigned integer of the same size: `4@%eax`, `8@x3`, `8@(%esp)`. Every
 * consumer reads that (gdb, libbpf, bcc, bpftrace, perf, stap); the `f` mark
 * of sys/sdt.h >= 4.5 (`8f@x3`) makes gdb 13 and libbcc drop the argument and
 * every later one. Define XSDT_FLOAT_SUFFIX to get the `f` mark anyway.
 */
#ifndef XSDT_USDT_H
#define XSDT_USDT_H

#if defined(__has_include)
#if !__has_include(<xsdt/arch/usdt.h>)
#error                                                                         \
    "xsdt: no backend on the include path; add -I arches/<arch>/include for the target"
#endif
#endif
#include <xsdt/arch/usdt.h>

/* ---- Argument traits: size, signedness, floating point ------------------ */

#ifdef __cplusplus
#include <type_traits>
namespace xsdt {
namespace detail {
template <class T, bool = std::is_enum<T>::value> struct integer_view {
  typedef T type;
};
template <class T> struct integer_view<T, true> {
  typedef typename std::underlying_type<T>::type type;
};
template <class T> struct arg_traits {
  typedef typename std::decay<T>::type decayed;
  static const bool is_float = std::is_floating_point<decayed>::value;
  static const bool is_signed =
      !is_float && std::is_signed<typename integer_view<decayed>::type>::value;
  static const int size = static_cast<int>(sizeof(decayed));
};
/* A floating-point argument as its bit pattern (XSDT_FLOAT_BITS_); any
 * other value as it is. */
template <class T> constexpr T float_bits(T v) { return v; }
inline unsigned int float_bits(float v) {
  unsigned int bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  return bits;
}
inline unsigned long long float_bits(double v) {
  unsigned long long bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  return bits;
}
/* A register argument's bytes as a word (backends with an argument area):
 * the spec's size says how many of its low bytes count. always_inline so
 * that -O0 makes no call at the probe site. */
template <class T>
__attribute__((always_inline)) inline unsigned long word_bits(T v) {
  unsigned long word = 0;
  __builtin_memcpy(&word, &v, sizeof v < sizeof word ? sizeof v : sizeof word);
  return word;
}
/* bool_byte: a bool as an unsigned char of the same value (XSDT_ARG_PLAIN_);
 * the template takes every other type, on the branch never chosen. */
template <class T>
struct is_bool : std::is_same<typename std::decay<T>::type, bool>::type {};
template <class T>
__attribute__((always_inline)) inline unsigned char bool_byte(const T &) {
  return 0;
}
__attribute__((always_inline)) inline unsigned char bool_byte(bool b) {
  return b;
}
/* member_bits: a pointer to data member as an unsigned integer of its size,
 * holding its ABI representation (the member's offset, Itanium and ARM C++
 * ABIs): clang 19 refuses a pointer to member as a register asm operand
 * (clang 14 and gcc pass those same bits). The template takes every type,
 * on the branch never chosen. */
template <class T>
struct is_member_data : std::is_member_object_pointer<
                            typename std::decay<T>::type>::type {};
template <class T>
__attribute__((always_inline)) inline unsigned char member_bits(const T &) {
  return 0;
}
template <class Class, class Member>
__attribute__((always_inline)) inline
    typename std::conditional<sizeof(Member Class::*) == 8, unsigned long long,
                              unsigned int>::type
    member_bits(Member Class::*member) {
  typename std::conditional<sizeof(Member Class::*) == 8, unsigned long long,
                            unsigned int>::type bits = 0;
  __builtin_memcpy(&bits, &member,
                   sizeof member < sizeof bits ? sizeof member : sizeof bits);
  return bits;
}
} // namespace detail
} // namespace xsdt
#define XSDT_ARG_TRAITS_(x) ::xsdt::detail::arg_traits<decltype((x))>
#define XSDT_ARG_SIZE_(x) (XSDT_ARG_TRAITS_(x)::size)
#define XSDT_ARG_SIGNED_(x) (XSDT_ARG_TRAITS_(x)::is_signed)
#define XSDT_ARG_FLOAT_(x) (XSDT_ARG_TRAITS_(x)::is_float)
/* auto: the decayed, unqualified type, also in templates (no typename). */
#define XSDT_ARG_COPY_(var, x) auto var = (x)
#define XSDT_FLOAT_BITS_(x) ::xsdt::detail::float_bits(x)
#ifdef __clang__
/* clang has __builtin_choose_expr in C++ too; both branches must compile
 * for every argument type. (gcc hands a bool over as a whole byte.) */
#define XSDT_BOOL_AS_BYTE_(x, otherwise)                                       \
  __builtin_choose_expr(::xsdt::detail::is_bool<decltype((x))>::value,         \
                        ::xsdt::detail::bool_byte(x), otherwise)
#define XSDT_MEMBER_AS_BITS_(x, otherwise)                                     \
  __builtin_choose_expr(::xsdt::detail::is_member_data<decltype((x))>::value,  \
                        ::xsdt::detail::member_bits(x), otherwise)
#else
#define XSDT_BOOL_AS_BYTE_(x, otherwise) otherwise
#define XSDT_MEMBER_AS_BITS_(x, otherwise) otherwise
#endif
#define XSDT_EXTERN_C_ extern "C"
#else
/* __builtin_classify_type: 5 pointer, 8 real, 14 array. A class is tested
 * as a bit of a mask, so that the argument is written once: each macro
 * here is nested in others that repeat their argument, and the text a
 * 12-argument probe expands to grows with the product. */
#define XSDT_CLASS_IN_(x, mask)                                                \
  ((((unsigned long)(mask)) >> (__builtin_classify_type(x) & 31)) & 1)
#define XSDT_ARG_POINTER_(x) XSDT_CLASS_IN_(x, 1UL << 5 | 1UL << 14)
#define XSDT_ARG_FLOAT_(x) (__builtin_classify_type(x) == 8)
/* The comma operator decays arrays (also array parameters, where a plain
 * sizeof would warn) without promoting narrow integers. */
#define XSDT_ARG_SIZE_(x) ((int)sizeof(__typeof__(((void)0, (x)))))
/* The argument's own type for integers; a stand-in unsigned type for
 * pointers and floats, whose casts from -1 would not be constant. */
#define XSDT_ARG_INT_TYPE_(x)                                                  \
  __typeof__(__builtin_choose_expr(XSDT_ARG_POINTER_(x) || XSDT_ARG_FLOAT_(x), \
                                   0U, (x)))
#define XSDT_ARG_SIGNED_(x)                                                    \
  (!XSDT_ARG_FLOAT_(x) &&                                                      \
   !((XSDT_ARG_INT_TYPE_(x)) - 1 > (XSDT_ARG_INT_TYPE_(x))0))
/* The comma operator decays arrays without promoting narrow integers. */
#define XSDT_ARG_COPY_(var, x) __typeof__(((void)0, (x))) var = (x)
/* Only the bytes the spec's size names are read: a float's upper half of
 * the union is never looked at. */
/* A float's bits go to an integer of its own size: in a wider union they
 * would be the high half on a big-endian arch (s390x). */
#define XSDT_FLOAT_BITS_AS_(x, type)                                           \
  ((union {                                                                    \
    __typeof__(((void)0, (x))) value;                                          \
    type bits;                                                                 \
  }){(x)})                                                                     \
      .bits
#define XSDT_FLOAT_BITS_(x)                                                    \
  __builtin_choose_expr(                                                       \
      XSDT_ARG_FLOAT_(x),                                                      \
      __builtin_choose_expr(XSDT_ARG_SIZE_(x) == 4,                            \
                            XSDT_FLOAT_BITS_AS_(x, unsigned int),              \
                            XSDT_FLOAT_BITS_AS_(x, unsigned long long)),       \
      (x))
/* The inner choice keeps the cast off every other type (a struct). */
#define XSDT_ARG_IS_BOOL_(x)                                                   \
  __builtin_types_compatible_p(__typeof__(((void)0, (x))), _Bool)
#define XSDT_BOOL_AS_BYTE_(x, otherwise)                                       \
  __builtin_choose_expr(                                                       \
      XSDT_ARG_IS_BOOL_(x),                                                    \
      (unsigned char)__builtin_choose_expr(XSDT_ARG_IS_BOOL_(x), (x), 0),      \
      otherwise)
/* C has no pointer to member. */
#define XSDT_MEMBER_AS_BITS_(x, otherwise) otherwise
#define XSDT_EXTERN_C_ extern
#endif

/* A backend may map each argument's value before the asm receives it
 * (XSDT_ARCH_ARG_VALUE(x)), e.g. to XSDT_FLOAT_BITS_(x) where a compiler
 * hands a double to an "r" operand wrongly; by default the value itself. */
#ifndef XSDT_ARCH_ARG_VALUE
#define XSDT_ARCH_ARG_VALUE(x) (x)
#endif

/* The value a register operand receives, a plain value:
 * - never the argument itself when that is a register variable
 *   (`register double d __asm__("xmm0")`). Such a variable named as an asm
 *   operand is pinned to its register whatever the constraint says, and
 *   clang honours the pin: x86-64 then fails to build ("invalid operand in
 *   inline asm" for %q of an xmm register), AArch64 and RISC-V name d8 or
 *   fs0 in the spec, and armhf r12 or lr, outside the portable subset. The
 *   comma makes it a plain value, which the constraint moves to a general
 *   register as it does any other (a double with fmov, movq or fmv.x.d);
 *   gcc already moves what the constraint does not allow, and folds the
 *   comma away. The argument-area backends (i386, armhf) hand a register
 *   argument over as a word: in C through the same comma, in C++ through a
 *   function parameter, a copy already;
 * - a _Bool or bool as an unsigned char of the same value: clang hands a
 *   bool operand over as one bit and leaves the register's other bits as
 *   they were (ppc64el: the spec 1@4 read 0xf9 for a true computed from
 *   -7 & 1);
 * - (clang, C++) a pointer to data member as the unsigned integer of its
 *   size that holds its bits: clang 19 refuses it as a register operand.
 * Nothing changes for other arguments. */
#define XSDT_ARG_PLAIN_(v)                                                     \
  XSDT_BOOL_AS_BYTE_(v, XSDT_MEMBER_AS_BITS_(v, ((void)0, (v))))

/* perf skips an argument whose spec is an immediate ("Skipping unsupported
 * SDT argument", on every arch). -DXSDT_REGISTER_CONSTANTS hands each value
 * through an empty asm that claims to change it: the compiler no longer
 * sees a constant and loads it into a register, which perf reads. The cost
 * is one instruction per constant argument (docs/design.md, "Immediates");
 * by default constants stay immediates, which cost nothing. */
#ifdef XSDT_REGISTER_CONSTANTS
/* Only a constant goes through the asm: a value already in a register
 * would be copied to another, as the asm claims to change it. x is the
 * argument as written (gcc -O0 sees a constant there, not in v, the value
 * handed over: its bits, as a bool's byte or a float's integer; gcc does
 * not see a constant there at -O0, nor in a float's bits at -O2). */
#ifdef __cplusplus
#define XSDT_ARG_OPAQUE_(x, v)                                                 \
  (__builtin_constant_p(x) ? XSDT_ARG_IN_REGISTER_(v) : (v))
#else
/* C converts both arms of ?: to int: cast back, or a char would be widened
 * before the site. */
#define XSDT_ARG_OPAQUE_(x, v)                                                 \
  ((__typeof__(((void)0, (v))))(__builtin_constant_p(x)                        \
                                    ? XSDT_ARG_IN_REGISTER_(v)                 \
                                    : (v)))
#endif
#define XSDT_ARG_IN_REGISTER_(v)                                               \
  __extension__({                                                              \
    XSDT_ARG_COPY_(xsdt_constant, v);                                          \
    __asm__("" : "+r"(xsdt_constant));                                         \
    xsdt_constant;                                                             \
  })
#else
#define XSDT_ARG_OPAQUE_(x, v) v
#endif

/* One "n" operand per argument carries size | signed << 4 | `f` mark << 5;
 * the note text is built from it with assembler conditionals, because gcc
 * allows only 30 operands per asm and 12 arguments must fit. */
#ifdef XSDT_FLOAT_SUFFIX
#define XSDT_FLOAT_MARK_ 32
#else
#define XSDT_FLOAT_MARK_ 0
#endif
#define XSDT_ARG_CODE_(x)                                                      \
  (XSDT_ARG_SIZE_(x) | (XSDT_ARG_SIGNED_(x) ? 16 : 0) |                        \
   (XSDT_ARG_FLOAT_(x) ? XSDT_FLOAT_MARK_ : 0))

/* 1, 2, 4 or 8 as bits of a mask: the argument written twice, not four
 * times (see XSDT_CLASS_IN_). */
#define XSDT_ARG_SIZE_OK_(x)                                                   \
  (XSDT_ARG_SIZE_(x) <= 8 && ((0x116U >> (XSDT_ARG_SIZE_(x) & 15)) & 1))

/* ---- Per-argument pieces --------------------------------------------------
 */

#define XSDT_ARG_CHECK_(n, x) (void)sizeof(char[XSDT_ARG_SIZE_OK_(x) ? 1 : -1]);

#define XSDT_ARG_CODE_OPERAND_(n, x) [c##n] "n"(XSDT_ARG_CODE_(x))

/* "-" when signed, the size digit, "f" when marked floating point, then "@".
 * Computed by the assembler from the code, and kept short: with 12
 * arguments the template must stay under the 4095 characters that
 * -Wpedantic (clang -Woverlength-strings) allows a string literal. */
#define XSDT_ARG_SIZE_TEXT_(n)                                                 \
  ".fill (%c[c" #n "] >> 4) & 1, 1, '-'\n"                                     \
  ".byte '0' + (%c[c" #n "] & 15)\n"                                           \
  ".fill (%c[c" #n "] >> 5) & 1, 1, 'f'\n"                                     \
  ".ascii \"@\"\n"

#if defined(XSDT_ARCH_ARG_MEM_ASM) || defined(XSDT_ARCH_ARG_SLOT_BASE_ASM)
/* Backends with too few registers for 12 operands (i386) split the
 * arguments. The first ones that fit in one general register (integers and
 * pointers no wider than a long) go to the asm as their own "nr" operand,
 * as on other arches: a value already in a register, or a constant, then
 * costs nothing. The rest (8-byte values, which would sit in a register
 * pair that one spec cannot name, floating-point values, and the arguments
 * beyond the register budget) are copied into a local slot of their own,
 * an "m" operand that prints as the stack slot (`8(%esp)`, `-24(%ebp)`).
 * Only a local whose address the asm takes is safe there: an "m" operand
 * holding the value itself lets the compiler name where the value came
 * from (sym@GOTOFF(%ebx), SIB forms). XSDT_ARCH_ARG_AREA_REGS (at most 6)
 * is how many registers an asm always gets; the slots take none. */
/* Where a slot argument is copied: a local of its own, which the asm
 * names as an "m" operand; or, where every "m" operand would take a
 * register of its own (clang on armhf), an element of one array whose
 * address is a single register operand (XSDT_ARCH_ARG_SLOT_BASE_ASM). */
#ifdef XSDT_ARCH_ARG_SLOT_BASE_ASM
#define XSDT_AREA_DECL_(n, ...)                                                \
  enum { xsdt_in_regs_ = XSDT_ARCH_ARG_AREA_REGS };                            \
  unsigned long long xsdt_slots[n];
#define XSDT_SLOT_(n) xsdt_slots[(n)-1]
#define XSDT_SLOT_DECL_(n)
#define XSDT_ARG_SLOT_OPERAND_(S, n)
/* The base register's constraint, and code before the site that may move
 * the base to a register every consumer names (armhf's ARM state). */
#ifndef XSDT_ARCH_ARG_SLOT_BASE_CONSTRAINT
#define XSDT_ARCH_ARG_SLOT_BASE_CONSTRAINT "r"
#endif
#ifndef XSDT_ARCH_ARG_SLOT_BASE_CODE_ASM
#define XSDT_ARCH_ARG_SLOT_BASE_CODE_ASM ""
#endif
#define XSDT_SITE_CODE_TEXT_ XSDT_ARCH_ARG_SLOT_BASE_CODE_ASM
#define XSDT_SLOTS_OPERANDS_MEM_()                                             \
  , [b] XSDT_ARCH_ARG_SLOT_BASE_CONSTRAINT(xsdt_slots), "m"(xsdt_slots)
#define XSDT_SLOTS_OPERANDS_NONE_() , [b] "n"(0)
#define XSDT_ARG_MEM_TEXT_(n) XSDT_ARCH_ARG_SLOT_BASE_ASM(XSDT_SLOT_OFFSET_##n)
#define XSDT_SLOT_OFFSET_1 "0"
#define XSDT_SLOT_OFFSET_2 "8"
#define XSDT_SLOT_OFFSET_3 "16"
#define XSDT_SLOT_OFFSET_4 "24"
#define XSDT_SLOT_OFFSET_5 "32"
#define XSDT_SLOT_OFFSET_6 "40"
#define XSDT_SLOT_OFFSET_7 "48"
#define XSDT_SLOT_OFFSET_8 "56"
#define XSDT_SLOT_OFFSET_9 "64"
#define XSDT_SLOT_OFFSET_10 "72"
#define XSDT_SLOT_OFFSET_11 "80"
#define XSDT_SLOT_OFFSET_12 "88"
#else
#define XSDT_AREA_DECL_(n, ...)                                                \
  enum { xsdt_in_regs_ = XSDT_ARCH_ARG_AREA_REGS };
#define XSDT_SLOT_(n) xsdt_s##n
#define XSDT_SLOT_DECL_(n) unsigned long long xsdt_s##n;
#define XSDT_ARG_SLOT_OPERAND_(S, n) , [s##n] S(xsdt_s##n)
#define XSDT_SLOTS_OPERANDS_MEM_()
#define XSDT_SLOTS_OPERANDS_NONE_()
#define XSDT_SITE_CODE_TEXT_ ""
#define XSDT_ARG_MEM_TEXT_(n) XSDT_ARCH_ARG_MEM_ASM(n)
#endif
/* Does argument n go to its slot? An integer constant expression. */
#define XSDT_ARG_IN_AREA_(n, x)                                                \
  (!((n) <= xsdt_in_regs_ && !XSDT_ARG_FLOAT_(x) &&                            \
     XSDT_ARG_SIZE_(x) <= (int)sizeof(long)))
/* Does any argument? */
#define XSDT_AREA_USED_(n, ...)                                                \
  (XSDT_FOR_##n(XSDT_ARG_IN_AREA_, XSDT_OR_, __VA_ARGS__))
#define XSDT_OR_() ||
/* The value a register argument hands to the asm, as a whole word: a char
 * or short alone would be limited to the registers with byte names. A slot
 * argument hands over the constant 0, which takes no register, and is not
 * evaluated there. */
#ifdef __cplusplus
#define XSDT_ARG_WORD_(n, x)                                                   \
  (XSDT_ARG_IN_AREA_(n, x)                                                     \
       ? 0UL                                                                   \
       : XSDT_ARG_OPAQUE_(x, ::xsdt::detail::word_bits(x)))
#else
#define XSDT_ARG_WORD_(n, x)                                                   \
  ((unsigned long)__builtin_choose_expr(                                       \
      XSDT_ARG_IN_AREA_(n, x), 0UL, XSDT_ARG_OPAQUE_(x, XSDT_ARG_PLAIN_(x))))
#endif
/* A slot argument is evaluated here, and only here. */
#define XSDT_ARG_PREPARE_(n, x)                                                \
  XSDT_ARG_CHECK_(n, x) XSDT_SLOT_DECL_(n) if (XSDT_ARG_IN_AREA_(n, x)) {      \
    XSDT_ARG_COPY_(xsdt_value, x);                                             \
    __builtin_memcpy(&XSDT_SLOT_(n), &xsdt_value, sizeof xsdt_value);          \
  }
/* Bit 6 of the code tells the template which form the argument takes.
 * Arguments 1..6 may be in a register and have a value operand; the later
 * ones never are (3 operands for 6 arguments and 2 for the other 6: gcc
 * allows 30). S(n) is the slot's operand. */
#define XSDT_POS_REG_1 1
#define XSDT_POS_REG_2 1
#define XSDT_POS_REG_3 1
#define XSDT_POS_REG_4 1
#define XSDT_POS_REG_5 1
#define XSDT_POS_REG_6 1
#define XSDT_POS_REG_7 0
#define XSDT_POS_REG_8 0
#define XSDT_POS_REG_9 0
#define XSDT_POS_REG_10 0
#define XSDT_POS_REG_11 0
#define XSDT_POS_REG_12 0
/* "nr" unless the backend names the registers a bare spec may use (armhf:
 * "nl", r0..r7, the names gdb and libbpf both read). */
#ifndef XSDT_ARCH_ARG_REG_CONSTRAINT
#define XSDT_ARCH_ARG_REG_CONSTRAINT "nr"
#endif
/* Registers the compiler must keep out of the operands, as the site
 * "clobbers" them (ARM state: ip and lr, names gdb cannot read). */
#ifndef XSDT_ARCH_SITE_CLOBBERS
#define XSDT_ARCH_SITE_CLOBBERS
#endif
#define XSDT_ARG_VALUE_OPERAND_1(n, x)                                         \
  , [a##n] XSDT_ARCH_ARG_REG_CONSTRAINT(XSDT_ARG_WORD_(n, x))
#define XSDT_ARG_VALUE_OPERAND_0(n, x)
#define XSDT_ARG_OPERANDS_WITH_(S, n, x)                                       \
  [c##n] "n"(XSDT_ARG_CODE_(x) | (XSDT_ARG_IN_AREA_(n, x) ? 64 : 0))           \
      XSDT_ARG_SLOT_OPERAND_(S, n)                                             \
          XSDT_CAT_(XSDT_ARG_VALUE_OPERAND_, XSDT_POS_REG_##n)(n, x)
#define XSDT_SLOT_MEM_(slot) "m"(slot)
#define XSDT_SLOT_NONE_(slot) "n"(0)
#define XSDT_ARG_OPERANDS_MEM_(n, x)                                           \
  XSDT_ARG_OPERANDS_WITH_(XSDT_SLOT_MEM_, n, x)
#define XSDT_ARG_OPERANDS_NONE_(n, x)                                          \
  XSDT_ARG_OPERANDS_WITH_(XSDT_SLOT_NONE_, n, x)
/* Two asm statements, of which the compiler keeps one (the condition is a
 * constant, so the other one, and its note, is never emitted): the slots
 * are "m" operands only when some argument uses one, because a slot passed
 * as "m" costs a stack frame even when it is not written. The template is
 * the same; a constant 0 stands for the slots it then never prints. */
#define XSDT_SITE_ASM_(text, n, ...)                                           \
  if (XSDT_AREA_USED_(n, __VA_ARGS__))                                         \
    __asm__ __volatile__(                                                      \
        text                                                                   \
        :                                                                      \
        : XSDT_FOR_##n(XSDT_ARG_OPERANDS_MEM_, XSDT_COMMA_, __VA_ARGS__)       \
            XSDT_SLOTS_OPERANDS_MEM_()                                         \
        : XSDT_ARCH_SITE_CLOBBERS);                                            \
  else                                                                         \
    __asm__ __volatile__(                                                      \
        text                                                                   \
        :                                                                      \
        : XSDT_FOR_##n(XSDT_ARG_OPERANDS_NONE_, XSDT_COMMA_, __VA_ARGS__)      \
            XSDT_SLOTS_OPERANDS_NONE_()                                        \
        : XSDT_ARCH_SITE_CLOBBERS)
#define XSDT_ARG_FORM_TEXT_1(n)                                                \
  ".if %c[c" #n                                                                \
  "] & 64\n" XSDT_ARG_MEM_TEXT_(n) ".else\n" XSDT_ARCH_ARG_ASM(n) ".endif\n"
#define XSDT_ARG_FORM_TEXT_0(n) XSDT_ARG_MEM_TEXT_(n)
#define XSDT_ARG_TEXT_(n, x)                                                   \
  XSDT_ARG_SIZE_TEXT_(n) XSDT_CAT_(XSDT_ARG_FORM_TEXT_, XSDT_POS_REG_##n)(n)
/* Instructions before the site for a value operand (armhf's ARM state: a
 * copy of r11 into a register that gdb and libbpf both name). */
#ifdef XSDT_ARCH_ARG_CODE_ASM
#define XSDT_ARG_CODE_TEXT_1(n) XSDT_ARCH_ARG_CODE_ASM(n)
#else
#define XSDT_ARG_CODE_TEXT_1(n) ""
#endif
#define XSDT_ARG_CODE_TEXT_0(n) ""
#define XSDT_ARG_CODE_TEXT_(n, x)                                              \
  XSDT_CAT_(XSDT_ARG_CODE_TEXT_, XSDT_POS_REG_##n)(n)
#else
/* Every other backend hands each argument to the asm as its own operand. */
#define XSDT_AREA_DECL_(n, ...)
#define XSDT_ARG_PREPARE_(n, x) XSDT_ARG_CHECK_(n, x)
#define XSDT_ARG_OPERANDS_(n, x)                                               \
  XSDT_ARG_CODE_OPERAND_(n, x),                                                \
      [a##n] XSDT_ARCH_ARG_CONSTRAINT(                                         \
          XSDT_ARG_OPAQUE_(x, XSDT_ARG_PLAIN_(XSDT_ARCH_ARG_VALUE(x))))
#ifdef XSDT_ARCH_SITE_OUTPUT
/* A backend may give the asm an output it never writes (an "=r" that may
 * share an input's register, so it takes none of its own): gcc then folds
 * the sign or zero extension of a char or short into the asm, as it cannot
 * into an asm without outputs, and hands over the register the value
 * arrived in (AArch64: no `and w2, w2, #0xff` before the NOP). The spec's
 * size (`1@x2`) already says which low bytes count. */
#define XSDT_SITE_ASM_(text, n, ...)                                           \
  do {                                                                         \
    unsigned long xsdt_unused;                                                 \
    __asm__ __volatile__(                                                      \
        text                                                                   \
        : "=r"(xsdt_unused)                                                    \
        : XSDT_FOR_##n(XSDT_ARG_OPERANDS_, XSDT_COMMA_, __VA_ARGS__));         \
    (void)xsdt_unused;                                                         \
  } while (0)
#else
#define XSDT_SITE_ASM_(text, n, ...)                                           \
  __asm__ __volatile__(                                                        \
      text                                                                     \
      :                                                                        \
      : XSDT_FOR_##n(XSDT_ARG_OPERANDS_, XSDT_COMMA_, __VA_ARGS__))
#endif
#define XSDT_ARG_TEXT_(n, x) XSDT_ARG_SIZE_TEXT_(n) XSDT_ARCH_ARG_ASM(n)
#define XSDT_ARG_CODE_TEXT_(n, x) ""
#define XSDT_SITE_CODE_TEXT_ ""
#endif

/* ---- Argument iteration (0..12) --------------------------------------------
 */

#define XSDT_CAT_(a, b) XSDT_CAT2_(a, b)
#define XSDT_CAT2_(a, b) a##b
#define XSDT_STR_(x) XSDT_STR2_(x)
#define XSDT_STR2_(x) #x
#define XSDT_COMMA_() ,
#define XSDT_SPACE_TEXT_() ".ascii \" \"\n"
#define XSDT_NOTHING_()

/* Counts provider, name and the arguments: 2..14. */
#define XSDT_COUNT_(...)                                                       \
  XSDT_COUNT_PICK_(__VA_ARGS__, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, \
                   0)
#define XSDT_COUNT_PICK_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12,    \
                         _13, _14, n, ...)                                     \
  n

#define XSDT_FOR_0(M, S)
#define XSDT_FOR_1(M, S, a) M(1, a)
#define XSDT_FOR_2(M, S, a, b) XSDT_FOR_1(M, S, a) S() M(2, b)
#define XSDT_FOR_3(M, S, a, b, c) XSDT_FOR_2(M, S, a, b) S() M(3, c)
#define XSDT_FOR_4(M, S, a, b, c, d) XSDT_FOR_3(M, S, a, b, c) S() M(4, d)
#define XSDT_FOR_5(M, S, a, b, c, d, e) XSDT_FOR_4(M, S, a, b, c, d) S() M(5, e)
#define XSDT_FOR_6(M, S, a, b, c, d, e, f)                                     \
  XSDT_FOR_5(M, S, a, b, c, d, e) S() M(6, f)
#define XSDT_FOR_7(M, S, a, b, c, d, e, f, g)                                  \
  XSDT_FOR_6(M, S, a, b, c, d, e, f) S() M(7, g)
#define XSDT_FOR_8(M, S, a, b, c, d, e, f, g, h)                               \
  XSDT_FOR_7(M, S, a, b, c, d, e, f, g) S() M(8, h)
#define XSDT_FOR_9(M, S, a, b, c, d, e, f, g, h, i)                            \
  XSDT_FOR_8(M, S, a, b, c, d, e, f, g, h) S() M(9, i)
#define XSDT_FOR_10(M, S, a, b, c, d, e, f, g, h, i, j)                        \
  XSDT_FOR_9(M, S, a, b, c, d, e, f, g, h, i) S() M(10, j)
#define XSDT_FOR_11(M, S, a, b, c, d, e, f, g, h, i, j, k)                     \
  XSDT_FOR_10(M, S, a, b, c, d, e, f, g, h, i, j) S() M(11, k)
#define XSDT_FOR_12(M, S, a, b, c, d, e, f, g, h, i, j, k, l)                  \
  XSDT_FOR_11(M, S, a, b, c, d, e, f, g, h, i, j, k) S() M(12, l)

/* ---- The site and its note --------------------------------------------------
 */

#define XSDT_SEMAPHORE_NAME_(provider, name)                                   \
  XSDT_SEMAPHORE_NAME2_(provider, name)
#define XSDT_SEMAPHORE_NAME2_(provider, name) provider##_##name##_semaphore

/* The note is linked to the site's section (SHF_LINK_ORDER, "o") and joins
 * its COMDAT group ("?"), so --gc-sections and COMDAT folding drop the note
 * together with the code instead of leaving a note that points at nothing. */
#define XSDT_NOTE_ASM_(provider, name, semaphore, code_text, args_text)        \
  code_text XSDT_ARCH_SITE_ALIGN                                               \
      "\n" XSDT_ARCH_SITE_ENTER "\n"                                           \
      ".Lxsdt_site%=: " XSDT_ARCH_SITE_NOP "\n" XSDT_ARCH_SITE_LEAVE "\n"      \
      ".pushsection .note.stapsdt,\"o?\",%%note,.Lxsdt_site%=\n"               \
      ".balign 4\n"                                                            \
      ".4byte 992f-991f, 994f-993f, 3\n"                                       \
      "991: .asciz \"stapsdt\"\n"                                              \
      "992: .balign 4\n"                                                       \
      "993: " XSDT_ARCH_ADDR " .Lxsdt_site%=\n" XSDT_ARCH_ADDR                 \
      " _.stapsdt.base\n" XSDT_ARCH_ADDR " " semaphore "\n"                    \
      ".asciz \"" #provider "\"\n"                                             \
      ".asciz \"" #name "\"\n" args_text ".byte 0\n"                           \
      "994: .balign 4\n"                                                       \
      ".popsection\n"                                                          \
      ".ifndef _.stapsdt.base\n"                                               \
      ".pushsection .stapsdt.base,\"aGR\",%%progbits,.stapsdt.base,comdat\n"   \
      ".weak _.stapsdt.base\n"                                                 \
      ".hidden _.stapsdt.base\n"                                               \
      "_.stapsdt.base: .space 1\n"                                             \
      ".size _.stapsdt.base, 1\n"                                              \
      ".popsection\n"                                                          \
      ".endif\n"

#define XSDT_SITE_(provider, name, semaphore, n, ...)                          \
  do {                                                                         \
    XSDT_AREA_DECL_(n, __VA_ARGS__)                                            \
    XSDT_FOR_##n(XSDT_ARG_PREPARE_, XSDT_NOTHING_, __VA_ARGS__)                \
        XSDT_SITE_ASM_(                                                        \
            XSDT_NOTE_ASM_(                                                    \
                provider, name, semaphore,                                     \
                XSDT_SITE_CODE_TEXT_ XSDT_FOR_##n(XSDT_ARG_CODE_TEXT_,         \
                                                  XSDT_NOTHING_, __VA_ARGS__), \
                XSDT_FOR_##n(XSDT_ARG_TEXT_, XSDT_SPACE_TEXT_, __VA_ARGS__)),  \
            n, __VA_ARGS__);                                                   \
  } while (0)
#define XSDT_SITE0_(provider, name, semaphore)                                 \
  __asm__ __volatile__(XSDT_NOTE_ASM_(provider, name, semaphore, "", "") : :)

/* Dispatch on the count of provider, name and arguments (2..14). */
#define XSDT_SITE_N_2(s, p, n) XSDT_SITE0_(p, n, s)
#define XSDT_SITE_N_3(s, p, n, ...) XSDT_SITE_(p, n, s, 1, __VA_ARGS__)
#define XSDT_SITE_N_4(s, p, n, ...) XSDT_SITE_(p, n, s, 2, __VA_ARGS__)
#define XSDT_SITE_N_5(s, p, n, ...) XSDT_SITE_(p, n, s, 3, __VA_ARGS__)
#define XSDT_SITE_N_6(s, p, n, ...) XSDT_SITE_(p, n, s, 4, __VA_ARGS__)
#define XSDT_SITE_N_7(s, p, n, ...) XSDT_SITE_(p, n, s, 5, __VA_ARGS__)
#define XSDT_SITE_N_8(s, p, n, ...) XSDT_SITE_(p, n, s, 6, __VA_ARGS__)
#define XSDT_SITE_N_9(s, p, n, ...) XSDT_SITE_(p, n, s, 7, __VA_ARGS__)
#define XSDT_SITE_N_10(s, p, n, ...) XSDT_SITE_(p, n, s, 8, __VA_ARGS__)
#define XSDT_SITE_N_11(s, p, n, ...) XSDT_SITE_(p, n, s, 9, __VA_ARGS__)
#define XSDT_SITE_N_12(s, p, n, ...) XSDT_SITE_(p, n, s, 10, __VA_ARGS__)
#define XSDT_SITE_N_13(s, p, n, ...) XSDT_SITE_(p, n, s, 11, __VA_ARGS__)
#define XSDT_SITE_N_14(s, p, n, ...) XSDT_SITE_(p, n, s, 12, __VA_ARGS__)
#define XSDT_SITE_WITH_(semaphore, ...)                                        \
  XSDT_CAT_(XSDT_SITE_N_, XSDT_COUNT_(__VA_ARGS__))(semaphore, __VA_ARGS__)

#define XSDT_PROVIDER_(provider, ...) provider
#define XSDT_NAME_(provider, name, ...) name

/* ---- Public API
 * ----------------------------------------------------------------- */

/* XSDT_PROBE(provider, name, args...): a probe with no semaphore. */
#define XSDT_PROBE(...) XSDT_SITE_WITH_("0", __VA_ARGS__)

/* A probe whose note names the semaphore <provider>_<name>_semaphore, which
 * XSDT_SEMAPHORE must define in the same linked object. */
#define XSDT_PROBE_SEMAPHORED_(...)                                            \
  XSDT_SITE_WITH_(                                                             \
      XSDT_STR_(XSDT_SEMAPHORE_NAME_(XSDT_PROVIDER_(__VA_ARGS__, ~),           \
                                     XSDT_NAME_(__VA_ARGS__, ~))),             \
      __VA_ARGS__)

/* The semaphore: a 2-byte counter in .probes that tracers increment while
 * attached. Hidden, so each shared object has its own and reads it without
 * a GOT indirection. */
#define XSDT_SEMAPHORE(provider, name)                                         \
  XSDT_EXTERN_C_ __attribute__((visibility(                                    \
      "hidden"))) volatile unsigned short XSDT_SEMAPHORE_NAME_(provider,       \
                                                               name);          \
  __attribute__((section(".probes"), used)) volatile unsigned short            \
  XSDT_SEMAPHORE_NAME_(provider, name) = 0
#define XSDT_SEMAPHORE_DECLARE(provider, name)                                 \
  XSDT_EXTERN_C_ __attribute__((visibility("hidden"))) volatile unsigned short \
  XSDT_SEMAPHORE_NAME_(provider, name)

#define XSDT_PROBE_ENABLED(provider, name)                                     \
  __builtin_expect(XSDT_SEMAPHORE_NAME_(provider, name) != 0, 0)

/* Evaluates the arguments only while a tracer holds the semaphore. */
#define XSDT_PROBE_GUARDED(...)                                                \
  do {                                                                         \
    if (XSDT_PROBE_ENABLED(XSDT_PROVIDER_(__VA_ARGS__, ~),                     \
                           XSDT_NAME_(__VA_ARGS__, ~)))                        \
      XSDT_PROBE_SEMAPHORED_(__VA_ARGS__);                                     \
  } while (0)

/* ---- Registration with libxsdt, once per object (DTrace's drti.o) ------
 *
 * Every ELF object (program or shared library) built with this header
 * tells libxsdt when it is loaded and before it is unloaded, so that probes
 * of an object dlopen()ed after an enable get the enablings in force before
 * dlopen returns, and an object's state is dropped before dlclose unmaps it.
 * The constructor and destructor below are weak and hidden: the linker
 * keeps one per object. They call libxsdt's entry points only when those
 * are linked (weak, undefined otherwise: a program without libxsdt gets
 * null and nothing happens). A shared library finds them in the program
 * when libxsdt is linked into a program built with -rdynamic (or into a
 * shared libxsdt). The guard makes a second .init_array entry (one per
 * translation unit) a no-op. Define XSDT_NO_OBJECT_HOOKS to leave them
 * out; such objects are then noticed at libxsdt's next API call. */
#ifndef XSDT_NO_OBJECT_HOOKS
#ifdef __cplusplus
extern "C" {
#endif
extern void xsdt_object_loaded(const void *anchor) __attribute__((weak));
extern void xsdt_object_unloading(const void *anchor) __attribute__((weak));
extern __attribute__((weak, visibility("hidden"))) int xsdt_object_hooked_;
__attribute__((weak, visibility("hidden"))) int xsdt_object_hooked_ = 0;
void xsdt_object_load_hook_(void);
void xsdt_object_unload_hook_(void);
__attribute__((weak, visibility("hidden"), constructor, used)) void
xsdt_object_load_hook_(void) {
  if (xsdt_object_hooked_)
    return;
  xsdt_object_hooked_ = 1;
  if (xsdt_object_loaded)
    xsdt_object_loaded(&xsdt_object_hooked_);
}
__attribute__((weak, visibility("hidden"), destructor, used)) void
xsdt_object_unload_hook_(void) {
  if (xsdt_object_hooked_ != 1)
    return;
  xsdt_object_hooked_ = 2;
  if (xsdt_object_unloading)
    xsdt_object_unloading(&xsdt_object_hooked_);
}
#ifdef __cplusplus
}
#endif
#endif /* XSDT_NO_OBJECT_HOOKS */

#endif /* XSDT_USDT_H */
