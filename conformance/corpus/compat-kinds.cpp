/* C++: the <sys/sdt.h> drop-in with every kind of scalar a C++ program passes: bool, char, wchar_t, char16_t, char32_t, scoped and unscoped enums with underlying types, references, arrays and string literals, function names, static member functions and lambdas as function pointers, nullptr, pointers to data members (also through XSDT_PROBE), volatile, const and constexpr objects, float, double and long double, and the same in a template, through STAP_PROBEn, DTRACE_PROBEn and STAP_PROBEV (bools also through XSDT_PROBE). */
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

enum class Small : int8_t { Negative = -100, Positive = 100 };
enum class Port : uint16_t { Top = 65000 };
enum class Offset : int64_t { Far = -5000000000LL };
enum class Mask : unsigned long long { All = ~0ULL };
enum Byte : unsigned char { ByteMax = 255 };
enum Plain { PlainNegative = -3, PlainPositive = 9 };

struct Record {
  int first;
  long second;
  static int twice(int x) { return 2 * x; }
};

volatile int src_int = -7;
volatile double src_double = 1.5;
int global_array[3] = {1, 2, 3};
constexpr long constexpr_global = -12345;
const volatile int const_volatile_global = 17;

__attribute__((noinline)) int callee(int x) { return x + 1; }

/* 3 probes: 6 + 4 + 3 = 13 arguments. */
__attribute__((noinline)) void characters(int seed) {
  bool no = seed > 0;
  bool yes = seed < 0;
  char c = static_cast<char>(seed * 30);
  wchar_t wc = static_cast<wchar_t>(seed * 1000);
  char16_t c16 = static_cast<char16_t>(seed + 65536);
  char32_t c32 = static_cast<char32_t>(seed);
  ORACLE_STAP_PROBE6(compat_kinds_cxx, characters, no, yes, c, wc, c16, c32);
  ORACLE_STAP_PROBE4(compat_kinds_cxx, char_consts, true, u'\xffff', U'\x10ffff',
                     L'w');
  ORACLE_DTRACE_PROBE3(compat_kinds_cxx, char_signed, static_cast<signed char>(seed),
                       static_cast<unsigned char>(seed),
                       static_cast<bool>(seed & 1));
}

/* 1 probe, 1 argument, through xsdt's own macro, which takes bool the same
 * way: a bool computed from an odd negative int (clang on ppc64el handed
 * the operand over unmasked). */
__attribute__((noinline)) void native_bool(int seed) {
  ORACLE_PROBE(compat_kinds_cxx, native_bool, static_cast<bool>(seed & 1));
}

/* 2 probes: 6 + 6 = 12 arguments. */
__attribute__((noinline)) void enums(int seed) {
  Small small = static_cast<Small>(seed * 14); /* -98 */
  Port port = Port::Top;
  Offset offset = Offset::Far;
  Mask mask = Mask::All;
  Byte byte = ByteMax;
  Plain plain = static_cast<Plain>(seed);
  ORACLE_STAP_PROBE6(compat_kinds_cxx, enums, small, port, offset, mask, byte,
                     plain);
  ORACLE_STAP_PROBE6(compat_kinds_cxx, enum_consts, Small::Negative,
                     Small::Positive, Port::Top, Offset::Far, PlainNegative,
                     PlainPositive);
}

/* 3 probes: 5 + 6 + 2 = 13 arguments, and 3 more sites (ORACLE_GENERATED)
 * with 1 + 2 + 1 = 4 arguments. */
__attribute__((noinline)) void references_and_pointers(int seed, int arr_param[]) {
  int value = seed * 2;
  int &ref = value;
  const long &const_ref = constexpr_global;
  int &&rvalue_ref = seed + 0;
  int local_array[4] = {seed, 2, 3, 4};
  const char *text = "text";
  ORACLE_STAP_PROBE5(compat_kinds_cxx, references, ref, const_ref, rvalue_ref,
                     value, static_cast<int &>(ref));
  ORACLE_STAP_PROBE6(compat_kinds_cxx, arrays, local_array, global_array,
                     arr_param, "a string literal", u"wide", text);
  ORACLE_DTRACE_PROBE2(compat_kinds_cxx, null_pointers,
                       static_cast<void *>(nullptr), static_cast<int *>(0));
  /* nullptr (std::nullptr_t) and a pointer to a data member: the oracle
   * records them as what their bits are, a null pointer and the member's
   * offset (Itanium and ARM C++ ABI), with the same size and no sign. */
  std::nullptr_t null_value = nullptr;
  ORACLE_GENERATED(STAP_PROBE1(compat_kinds_cxx, null_t, null_value),
                   compat_kinds_cxx, null_t, static_cast<void *>(nullptr));
  ORACLE_GENERATED(
      STAP_PROBE2(compat_kinds_cxx, member_pointer, &Record::second, nullptr),
      compat_kinds_cxx, member_pointer,
      static_cast<size_t>(offsetof(Record, second)),
      static_cast<void *>(nullptr));
  /* The same through XSDT_PROBE, from a variable: a register operand, which
   * clang 19 refuses to a pointer to member. */
  long Record::*volatile member_source = &Record::second;
  long Record::*member = member_source;
  ORACLE_GENERATED(XSDT_PROBE(compat_kinds_cxx, member_pointer_native, member),
                   compat_kinds_cxx, member_pointer_native,
                   static_cast<size_t>(offsetof(Record, second)));
  local_array[1] = ref;
}

/* 2 probes: 5 + 4 = 9 arguments. */
__attribute__((noinline)) void functions(int seed) {
  int (*fp)(int) = callee;
  auto lambda = +[](int x) { return x * 3; };
  ORACLE_STAP_PROBE5(compat_kinds_cxx, functions, callee, &callee, fp,
                     Record::twice, &Record::twice);
  ORACLE_STAP_PROBE4(compat_kinds_cxx, lambda, lambda, lambda(seed), fp(seed),
                     static_cast<int (*)(int)>(callee));
}

/* 2 probes: 6 + 3 = 9 arguments. */
__attribute__((noinline)) void qualified(int seed) {
  volatile int v = seed * 3;
  volatile unsigned char vuc = 250;
  const int k = 42;
  constexpr long long ck = -(1LL << 40);
  const volatile long cv = -seed;
  const int *pc = &global_array[0];
  ORACLE_STAP_PROBE6(compat_kinds_cxx, qualified, v, vuc, k, ck, cv, pc);
  ORACLE_STAP_PROBEV(compat_kinds_cxx, qualified_globals, constexpr_global,
                     const_volatile_global, src_int);
}

/* 2 probes: 7 + 1 = 8 arguments. */
__attribute__((noinline)) void floating(double d) {
  float f = static_cast<float>(d);
  double dneg = -d;
  double zero = d - d;
  double neg_zero = -zero;
  double nan = zero / zero;
  ORACLE_STAP_PROBE7(compat_kinds_cxx, floats, f, -f, d, dneg, neg_zero, nan,
                     DBL_MAX);
#if __SIZEOF_LONG_DOUBLE__ == __SIZEOF_DOUBLE__
  long double ld = d * 3;
#else
  double ld = d * 3;
#endif
  ORACLE_STAP_PROBE1(compat_kinds_cxx, long_double, ld);
}

/* One site per instantiation: 3 probes of 2 arguments = 6. */
template <class T> __attribute__((noinline)) void generic(T value) {
  const T copy = value;
  ORACLE_STAP_PROBE2(compat_kinds_cxx, generic, value, copy);
}

int main() {
  oracle_start();
  characters(src_int);
  native_bool(src_int);
  enums(src_int);
  references_and_pointers(src_int, global_array);
  functions(src_int);
  qualified(src_int);
  floating(src_double);
  generic<int8_t>(static_cast<int8_t>(src_int));
  generic<double>(src_double);
  generic<Small>(Small::Negative);
  return 0;
}
