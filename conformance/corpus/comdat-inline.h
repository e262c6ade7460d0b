// Probes in COMDAT functions defined in a header and used from two translation units (comdat-inline-a.cpp, comdat-inline-b.cpp): inline functions (inlined into the callers at -O1 and above), a noinline inline function and a class template member (one COMDAT copy each after the link), and an inline function's static local.
#ifndef XSDT_CORPUS_COMDAT_INLINE_H
#define XSDT_CORPUS_COMDAT_INLINE_H

#include <cstdint>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

// May be inlined: then each caller carries its own copy of the site.
inline int inline_header(int x) {
  ORACLE_PROBE(comdat, inline_header, x, x * 3000000000LL);
  return x + 1;
}

// One out-of-line copy per TU; the link keeps one, and one note.
__attribute__((noinline)) inline unsigned noinline_header(unsigned x) {
  ORACLE_PROBE(comdat, noinline_header, x, static_cast<uint8_t>(x));
  return x ^ 1u;
}

template <class T> struct Box {
  T value;
  __attribute__((noinline)) T get() const {
    ORACLE_PROBE(comdat, box_get, value, this);
    return value;
  }
};

// The static local is one COMDAT object shared by both TUs.
inline int &shared_counter() {
  static int count = 0;
  return count;
}

inline void bump_counter(int by) {
  shared_counter() += by;
  ORACLE_PROBE(comdat, static_local, shared_counter(), &shared_counter());
}

int from_a(int x);
int from_b(int x);

#endif
