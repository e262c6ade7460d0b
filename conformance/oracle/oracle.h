/*
 * The value oracle: checks, at run time, that every probe argument the
 * runtime (libxsdt) decodes equals the value the source passed.
 *
 *   ORACLE_PROBE(provider, name, args...)          IMPL_PROBE with 0..12 args:
 *                                                  the implementation under
 *                                                  test (conformance/impls),
 *                                                  XSDT_PROBE by default
 *   ORACLE_PROBE_GUARDED(provider, name, args...)  XSDT_PROBE_GUARDED
 *   ORACLE_GENERATED(fire, provider, name, args...) a macro of a generated
 *                                                  provider header (`dtrace
 *                                                  -h`): `fire` is the call,
 *                                                  e.g. SHOP_ORDER(id, total),
 *                                                  provider and name what its
 *                                                  note must say, args the
 *                                                  values the call passes
 *   ORACLE_STAP_PROBE, ORACLE_STAP_PROBE1..12, ORACLE_STAP_PROBEV,
 *   ORACLE_DTRACE_PROBE, ORACLE_DTRACE_PROBE1..12  the <xsdt/sys-sdt.h> names
 *                                                  (include that header too)
 *   oracle_start()       enable every probe of the program (trap mode)
 *   oracle_enable(pat)   enable more probes later, e.g. after dlopen
 *   oracle_stop()        disable everything the oracle enabled
 *   ORACLE_UNREACHED(provider, name)  its sites are deliberately never hit
 *
 * The truth does not come from the decoder. Each ORACLE_* probe first
 * evaluates its argument expressions in C and records, in a thread-local
 * "expectation", the provider, name, argument count and each value
 * converted from its own C type: integers (also _Bool/bool, enums, chars) to
 * 64 bits with the type's own signedness, pointers through uintptr_t,
 * float and double as double; plus sizeof and signedness of the type. Then
 * it fires exactly ONE probe site (the XSDT_PROBE... / STAP_PROBE... it
 * wraps). The oracle's handler, called by the runtime in signal context on
 * the thread that hit the site, matches the hit to the expectation (same
 * thread, provider, name and argc) and compares each decoded argument:
 *   - integers and pointers by the spec's size and sign: the expected value
 *     is truncated to the spec's size and extended with the spec's sign,
 *     then compared with all 64 decoded bits;
 *   - floating point by value (and the IEEE bits of the spec's width);
 *   - the spec's size, sign and `f` against the C type.
 * At exit it prints
 *     oracle: <N> sites, <M> args verified, <K> mismatches
 * (N distinct site addresses hit and checked, M arguments compared, K of them
 * wrong) and one line per failure, and exits non-zero on any mismatch, on a
 * hit without an expectation, on an expectation without a hit, when no
 * argument was verified at all, or when an enabled site was never hit and
 * not declared with ORACLE_UNREACHED.
 *
 * ARGUMENTS ARE EVALUATED TWICE (once for the record, once for the probe),
 * so probe arguments must not have side effects. A guarded probe records
 * and fires only while its semaphore is set; then its arguments are also
 * evaluated ORACLE_EVALUATIONS times.
 *
 * The header needs only <xsdt/usdt.h>; oracle.c needs the runtime
 * (<xsdt/runtime.h> and its library). It holds no probe: the suite compiles
 * it once per toolchain, as C (its API is extern "C"), and links that object
 * into every corpus program, C and C++ alike. Programs whose shared
 * libraries use ORACLE_* link the oracle into the program only and export it
 * (-rdynamic), so that there is one oracle per process. The environment
 * variable ORACLE_CELL names the cell in every failure line (ORACLE_CELL="name"
 * at compile time, the fallback, would make one object per cell).
 */
#ifndef XSDT_ORACLE_H
#define XSDT_ORACLE_H

#include <stdint.h>
#include <xsdt/usdt.h>

#ifdef __cplusplus
#include <type_traits>
extern "C" {
#endif

#define ORACLE_MAX_ARGS 12
#define ORACLE_EVALUATIONS 2

enum oracle_kind {
  ORACLE_KIND_INT = 1,     /* integers, _Bool/bool, enums, chars */
  ORACLE_KIND_POINTER = 2, /* object and function pointers, arrays */
  ORACLE_KIND_FLOAT = 3    /* float, double */
};

/* The ground truth of one argument, from its C type. */
typedef struct oracle_value {
  uint64_t bits; /* INT: the value, sign-extended iff its type is signed;
                    POINTER: (uintptr_t) zero-extended; FLOAT: 0 */
  double real;   /* FLOAT: the value converted to double */
  int kind;      /* enum oracle_kind */
  int size;      /* sizeof the (decayed) type */
  int is_signed; /* the type is a signed integer type */
} oracle_value;

void oracle_start(void);
int oracle_enable(const char *pattern);
void oracle_stop(void);
void oracle_unreached(const char *provider, const char *name);

/* Used by the macros below. */
void oracle_expect_begin_(const char *provider, const char *name, int argc);
void oracle_expect_arg_(int index, oracle_value value);
void oracle_expect_end_(void);

static inline oracle_value oracle_value_(int kind, uint64_t bits, double real,
                                         int size, int is_signed) {
  oracle_value v;
  v.bits = bits;
  v.real = real;
  v.kind = kind;
  v.size = size;
  v.is_signed = is_signed;
  return v;
}

#ifdef __cplusplus
} /* extern "C" */

namespace oracle_detail {
template <class T, bool = std::is_enum<T>::value> struct integer_of {
  typedef T type;
};
template <class T> struct integer_of<T, true> {
  typedef typename std::underlying_type<T>::type type;
};
/* By value: arrays and functions decay, bit-fields are copied. */
template <class T>
inline oracle_value make(T v, std::true_type /* floating */,
                         std::false_type /* pointer */) {
  return oracle_value_(ORACLE_KIND_FLOAT, 0, static_cast<double>(v),
                       static_cast<int>(sizeof(T)), 0);
}
template <class T>
inline oracle_value make(T v, std::false_type, std::true_type) {
  return oracle_value_(ORACLE_KIND_POINTER,
                       static_cast<uint64_t>(reinterpret_cast<uintptr_t>(v)),
                       0.0, static_cast<int>(sizeof(T)), 0);
}
template <class T>
inline oracle_value make(T v, std::false_type, std::false_type) {
  typedef typename integer_of<T>::type U;
  const bool is_signed = std::is_signed<U>::value;
  const U u = static_cast<U>(v);
  return oracle_value_(ORACLE_KIND_INT,
                       is_signed ? static_cast<uint64_t>(static_cast<int64_t>(u))
                                 : static_cast<uint64_t>(u),
                       0.0, static_cast<int>(sizeof(T)), is_signed ? 1 : 0);
}
template <class T> inline oracle_value value(T v) {
  return make<T>(v,
                 std::integral_constant<bool, std::is_floating_point<T>::value>(),
                 std::integral_constant<bool, std::is_pointer<T>::value>());
}
} // namespace oracle_detail
#define ORACLE_VALUE_(x) ::oracle_detail::value(x)

#else /* C */

/* __builtin_classify_type: 5 pointer, 8 real, 14 array. Each piece below
 * is the argument itself when it has that kind and a harmless constant
 * otherwise, so every conversion applies only to its own kind and the
 * argument is evaluated once. */
#define ORACLE_IS_POINTER_(x)                                                  \
  (__builtin_classify_type(x) == 5 || __builtin_classify_type(x) == 14)
#define ORACLE_IS_FLOAT_(x) (__builtin_classify_type(x) == 8)
#define ORACLE_INT_PART_(x)                                                    \
  __builtin_choose_expr(ORACLE_IS_POINTER_(x) || ORACLE_IS_FLOAT_(x), 0, (x))
#define ORACLE_POINTER_PART_(x)                                                \
  __builtin_choose_expr(ORACLE_IS_POINTER_(x), (x), (void *)0)
#define ORACLE_FLOAT_PART_(x)                                                  \
  __builtin_choose_expr(ORACLE_IS_FLOAT_(x), (x), 0.0)
#define ORACLE_INT_TYPE_(x) __typeof__(ORACLE_INT_PART_(x))
#define ORACLE_INT_SIGNED_(x)                                                  \
  (!ORACLE_IS_POINTER_(x) && !ORACLE_IS_FLOAT_(x) &&                           \
   !((ORACLE_INT_TYPE_(x)) - 1 > (ORACLE_INT_TYPE_(x))0))
/* The comma operator decays arrays without promoting narrow integers. */
#define ORACLE_SIZE_(x) ((int)sizeof(__typeof__(((void)0, (x)))))
#define ORACLE_VALUE_(x)                                                       \
  oracle_value_(                                                               \
      ORACLE_IS_FLOAT_(x)     ? ORACLE_KIND_FLOAT                              \
      : ORACLE_IS_POINTER_(x) ? ORACLE_KIND_POINTER                            \
                              : ORACLE_KIND_INT,                               \
      ORACLE_IS_POINTER_(x)                                                    \
          ? (uint64_t)(uintptr_t)ORACLE_POINTER_PART_(x)                       \
          : (ORACLE_INT_SIGNED_(x) ? (uint64_t)(int64_t)ORACLE_INT_PART_(x)    \
                                   : (uint64_t)ORACLE_INT_PART_(x)),           \
      (double)ORACLE_FLOAT_PART_(x), ORACLE_SIZE_(x), ORACLE_INT_SIGNED_(x))

#endif

/* ---- Recording ------------------------------------------------------------- */

#define ORACLE_STR_(x) ORACLE_STR2_(x)
#define ORACLE_STR2_(x) #x
#define ORACLE_CAT_(a, b) ORACLE_CAT2_(a, b)
#define ORACLE_CAT2_(a, b) a##b

/* Counts provider, name and the arguments: 2..14. */
#define ORACLE_COUNT_(...)                                                     \
  ORACLE_COUNT_PICK_(__VA_ARGS__, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,  \
                     1, 0)
#define ORACLE_COUNT_PICK_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12,  \
                           _13, _14, n, ...)                                   \
  n

#define ORACLE_ARG_(i, x) oracle_expect_arg_(i, ORACLE_VALUE_(x));
#define ORACLE_ARGS_1(a) ORACLE_ARG_(0, a)
#define ORACLE_ARGS_2(a, b) ORACLE_ARGS_1(a) ORACLE_ARG_(1, b)
#define ORACLE_ARGS_3(a, b, c) ORACLE_ARGS_2(a, b) ORACLE_ARG_(2, c)
#define ORACLE_ARGS_4(a, b, c, d) ORACLE_ARGS_3(a, b, c) ORACLE_ARG_(3, d)
#define ORACLE_ARGS_5(a, b, c, d, e) ORACLE_ARGS_4(a, b, c, d) ORACLE_ARG_(4, e)
#define ORACLE_ARGS_6(a, b, c, d, e, f)                                        \
  ORACLE_ARGS_5(a, b, c, d, e) ORACLE_ARG_(5, f)
#define ORACLE_ARGS_7(a, b, c, d, e, f, g)                                     \
  ORACLE_ARGS_6(a, b, c, d, e, f) ORACLE_ARG_(6, g)
#define ORACLE_ARGS_8(a, b, c, d, e, f, g, h)                                  \
  ORACLE_ARGS_7(a, b, c, d, e, f, g) ORACLE_ARG_(7, h)
#define ORACLE_ARGS_9(a, b, c, d, e, f, g, h, i)                               \
  ORACLE_ARGS_8(a, b, c, d, e, f, g, h) ORACLE_ARG_(8, i)
#define ORACLE_ARGS_10(a, b, c, d, e, f, g, h, i, j)                           \
  ORACLE_ARGS_9(a, b, c, d, e, f, g, h, i) ORACLE_ARG_(9, j)
#define ORACLE_ARGS_11(a, b, c, d, e, f, g, h, i, j, k)                        \
  ORACLE_ARGS_10(a, b, c, d, e, f, g, h, i, j) ORACLE_ARG_(10, k)
#define ORACLE_ARGS_12(a, b, c, d, e, f, g, h, i, j, k, l)                     \
  ORACLE_ARGS_11(a, b, c, d, e, f, g, h, i, j, k) ORACLE_ARG_(11, l)

#define ORACLE_BEGIN_(p, n, argc)                                              \
  oracle_expect_begin_(ORACLE_STR_(p), ORACLE_STR_(n), argc);
/* Dispatch on the count of provider, name and arguments (2..14). */
#define ORACLE_RECORD_N_2(p, n) ORACLE_BEGIN_(p, n, 0)
#define ORACLE_RECORD_N_3(p, n, ...) ORACLE_BEGIN_(p, n, 1) ORACLE_ARGS_1(__VA_ARGS__)
#define ORACLE_RECORD_N_4(p, n, ...) ORACLE_BEGIN_(p, n, 2) ORACLE_ARGS_2(__VA_ARGS__)
#define ORACLE_RECORD_N_5(p, n, ...) ORACLE_BEGIN_(p, n, 3) ORACLE_ARGS_3(__VA_ARGS__)
#define ORACLE_RECORD_N_6(p, n, ...) ORACLE_BEGIN_(p, n, 4) ORACLE_ARGS_4(__VA_ARGS__)
#define ORACLE_RECORD_N_7(p, n, ...) ORACLE_BEGIN_(p, n, 5) ORACLE_ARGS_5(__VA_ARGS__)
#define ORACLE_RECORD_N_8(p, n, ...) ORACLE_BEGIN_(p, n, 6) ORACLE_ARGS_6(__VA_ARGS__)
#define ORACLE_RECORD_N_9(p, n, ...) ORACLE_BEGIN_(p, n, 7) ORACLE_ARGS_7(__VA_ARGS__)
#define ORACLE_RECORD_N_10(p, n, ...) ORACLE_BEGIN_(p, n, 8) ORACLE_ARGS_8(__VA_ARGS__)
#define ORACLE_RECORD_N_11(p, n, ...) ORACLE_BEGIN_(p, n, 9) ORACLE_ARGS_9(__VA_ARGS__)
#define ORACLE_RECORD_N_12(p, n, ...) ORACLE_BEGIN_(p, n, 10) ORACLE_ARGS_10(__VA_ARGS__)
#define ORACLE_RECORD_N_13(p, n, ...) ORACLE_BEGIN_(p, n, 11) ORACLE_ARGS_11(__VA_ARGS__)
#define ORACLE_RECORD_N_14(p, n, ...) ORACLE_BEGIN_(p, n, 12) ORACLE_ARGS_12(__VA_ARGS__)
#define ORACLE_RECORD_(...)                                                    \
  ORACLE_CAT_(ORACLE_RECORD_N_, ORACLE_COUNT_(__VA_ARGS__))(__VA_ARGS__)

#define ORACLE_PROVIDER_(provider, ...) provider
#define ORACLE_NAME_(provider, name, ...) name

/* Keeps the record, the site and the check in this order. */
#define ORACLE_BARRIER_() __asm__ __volatile__("" ::: "memory")

/* Record, fire the one site `fire`, then check that the hit came. */
#define ORACLE_DO_(fire, ...)                                                  \
  do {                                                                         \
    ORACLE_RECORD_(__VA_ARGS__)                                                \
    ORACLE_BARRIER_();                                                         \
    fire;                                                                      \
    ORACLE_BARRIER_();                                                         \
    oracle_expect_end_();                                                      \
  } while (0)

/* ---- Public macros ------------------------------------------------------------ */

/* The implementation's adapter (conformance/impls/<name>.h, -include'd by the
 * suite) defines IMPL_PROBE; without one the probes are xsdt's. */
#ifndef IMPL_PROBE
#define IMPL_PROBE(...) XSDT_PROBE(__VA_ARGS__)
#endif

#define ORACLE_PROBE(...) ORACLE_DO_(IMPL_PROBE(__VA_ARGS__), __VA_ARGS__)
#define ORACLE_GENERATED(fire, ...) ORACLE_DO_(fire, __VA_ARGS__)

/* Records only while the semaphore is set, when XSDT_PROBE_GUARDED fires. */
#define ORACLE_PROBE_GUARDED(...)                                              \
  do {                                                                         \
    if (XSDT_PROBE_ENABLED(ORACLE_PROVIDER_(__VA_ARGS__, ~),                   \
                           ORACLE_NAME_(__VA_ARGS__, ~))) {                    \
      ORACLE_RECORD_(__VA_ARGS__)                                              \
    }                                                                          \
    ORACLE_BARRIER_();                                                         \
    XSDT_PROBE_GUARDED(__VA_ARGS__);                                           \
    ORACLE_BARRIER_();                                                         \
    oracle_expect_end_();                                                      \
  } while (0)

/* The <xsdt/sys-sdt.h> names (that header must be included as well). */
#define ORACLE_STAP_PROBEV(...) ORACLE_DO_(STAP_PROBEV(__VA_ARGS__), __VA_ARGS__)
#define ORACLE_STAP_PROBE(p, n) ORACLE_DO_(STAP_PROBE(p, n), p, n)
#define ORACLE_STAP_PROBE1(p, n, a1) ORACLE_DO_(STAP_PROBE1(p, n, a1), p, n, a1)
#define ORACLE_STAP_PROBE2(p, n, a1, a2)                                       \
  ORACLE_DO_(STAP_PROBE2(p, n, a1, a2), p, n, a1, a2)
#define ORACLE_STAP_PROBE3(p, n, a1, a2, a3)                                   \
  ORACLE_DO_(STAP_PROBE3(p, n, a1, a2, a3), p, n, a1, a2, a3)
#define ORACLE_STAP_PROBE4(p, n, a1, a2, a3, a4)                               \
  ORACLE_DO_(STAP_PROBE4(p, n, a1, a2, a3, a4), p, n, a1, a2, a3, a4)
#define ORACLE_STAP_PROBE5(p, n, a1, a2, a3, a4, a5)                           \
  ORACLE_DO_(STAP_PROBE5(p, n, a1, a2, a3, a4, a5), p, n, a1, a2, a3, a4, a5)
#define ORACLE_STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                       \
  ORACLE_DO_(STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6), p, n, a1, a2, a3, a4,  \
             a5, a6)
#define ORACLE_STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                   \
  ORACLE_DO_(STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7), p, n, a1, a2, a3,  \
             a4, a5, a6, a7)
#define ORACLE_STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)               \
  ORACLE_DO_(STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8), p, n, a1, a2,  \
             a3, a4, a5, a6, a7, a8)
#define ORACLE_STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)           \
  ORACLE_DO_(STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9), p, n, a1,  \
             a2, a3, a4, a5, a6, a7, a8, a9)
#define ORACLE_STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)     \
  ORACLE_DO_(STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), p,   \
             n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define ORACLE_STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,     \
                            a11)                                               \
  ORACLE_DO_(STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), \
             p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define ORACLE_STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,     \
                            a11, a12)                                          \
  ORACLE_DO_(STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11,  \
                          a12),                                                \
             p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define ORACLE_DTRACE_PROBE(p, n) ORACLE_DO_(DTRACE_PROBE(p, n), p, n)
#define ORACLE_DTRACE_PROBE1(p, n, a1)                                         \
  ORACLE_DO_(DTRACE_PROBE1(p, n, a1), p, n, a1)
#define ORACLE_DTRACE_PROBE2(p, n, a1, a2)                                     \
  ORACLE_DO_(DTRACE_PROBE2(p, n, a1, a2), p, n, a1, a2)
#define ORACLE_DTRACE_PROBE3(p, n, a1, a2, a3)                                 \
  ORACLE_DO_(DTRACE_PROBE3(p, n, a1, a2, a3), p, n, a1, a2, a3)
#define ORACLE_DTRACE_PROBE4(p, n, a1, a2, a3, a4)                             \
  ORACLE_DO_(DTRACE_PROBE4(p, n, a1, a2, a3, a4), p, n, a1, a2, a3, a4)
#define ORACLE_DTRACE_PROBE5(p, n, a1, a2, a3, a4, a5)                         \
  ORACLE_DO_(DTRACE_PROBE5(p, n, a1, a2, a3, a4, a5), p, n, a1, a2, a3, a4, a5)
#define ORACLE_DTRACE_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                     \
  ORACLE_DO_(DTRACE_PROBE6(p, n, a1, a2, a3, a4, a5, a6), p, n, a1, a2, a3,    \
             a4, a5, a6)
#define ORACLE_DTRACE_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                 \
  ORACLE_DO_(DTRACE_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7), p, n, a1, a2,    \
             a3, a4, a5, a6, a7)
#define ORACLE_DTRACE_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)             \
  ORACLE_DO_(DTRACE_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8), p, n, a1,    \
             a2, a3, a4, a5, a6, a7, a8)
#define ORACLE_DTRACE_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)         \
  ORACLE_DO_(DTRACE_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9), p, n,    \
             a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define ORACLE_DTRACE_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)   \
  ORACLE_DO_(DTRACE_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), p, \
             n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define ORACLE_DTRACE_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,   \
                              a11)                                             \
  ORACLE_DO_(DTRACE_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,     \
                            a11),                                              \
             p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define ORACLE_DTRACE_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,   \
                              a11, a12)                                        \
  ORACLE_DO_(DTRACE_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,     \
                            a11, a12),                                         \
             p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define ORACLE_UNREACHED(provider, name)                                       \
  oracle_unreached(ORACLE_STR_(provider), ORACLE_STR_(name))

#endif /* XSDT_ORACLE_H */
