// Header-defined inline function and template with probes, included by cxx-inline-a.cpp and cxx-inline-b.cpp: each TU emits a COMDAT copy and the link keeps one.
#ifndef XSDT_CORPUS_CXX_INLINE_H
#define XSDT_CORPUS_CXX_INLINE_H

#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

// noinline keeps an out-of-line COMDAT copy in each translation unit at
// every optimization level; the linker must keep exactly one copy, and the
// note of the discarded copy must go with it.
__attribute__((noinline)) inline int shared_inline(int x) {
  ORACLE_PROBE(corpus, shared_inline, x);
  return x + 1;
}

template <class T> __attribute__((noinline)) T shared_template(T x) {
  ORACLE_PROBE(corpus, shared_template, x);
  return x + 2;
}

int call_from_a(int x);
int call_from_b(int x);

#endif
