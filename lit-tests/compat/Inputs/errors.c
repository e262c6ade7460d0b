/* Arguments no spec can describe, one per -D: each must be a compile error
 * that says why (the lit tests read the first error). Valid C and C++. */
#include <xsdt/sys-sdt.h>

struct pair {
  int a;
};
union either {
  int i;
  float f;
};

int sink;

void probe(int x);
void probe(int x) {
#if defined(INT128)
#ifdef __SIZEOF_INT128__
  __extension__ __int128 wide = x;
  STAP_PROBE1(compat, int128, wide);
#else
#error "no __int128 on this target"
#endif
#elif defined(LONG_DOUBLE)
  long double ld = x;
  STAP_PROBE1(compat, long_double, ld);
#elif defined(STRUCT)
  struct pair s = {x};
  STAP_PROBE1(compat, struct_value, s);
#elif defined(UNION)
  union either u;
  u.i = x;
  STAP_PROBE1(compat, union_value, u);
#elif defined(COMPLEX)
  __extension__ _Complex double c = x;
  STAP_PROBE1(compat, complex_value, c);
#elif defined(VECTOR)
  typedef int four __attribute__((vector_size(16)));
  four v = {x, x, x, x};
  STAP_PROBE1(compat, vector_value, v);
#elif defined(MEMBER_FUNCTION_POINTER)
  struct with_method {
    int method() { return 1; }
  };
  int (with_method::*pmf)() = &with_method::method;
  STAP_PROBE1(compat, member_function_pointer, pmf);
#endif
  sink = x;
}

#if defined(LONG_DOUBLE) && __SIZEOF_LONG_DOUBLE__ == __SIZEOF_DOUBLE__
/* Here the probe above compiled: a long double that is a double has a spec
 * (compat-kinds decodes one). The test reads this as that outcome. */
#error "long double is a double here and was accepted"
#endif
