// Probes in COMDAT functions of a header (comdat-inline.h) used from two translation units (comdat-inline-a.cpp, comdat-inline-b.cpp), each hit from both.
#include "comdat-inline.h"

volatile int src_value = 9;

int main() {
  int x = src_value;
  oracle_start();
  int a = from_a(x);
  int b = from_b(x);
  return shared_counter() == 11 && a != b ? 0 : 1;
}

// inline_header: int, long long; noinline_header: unsigned, uint8_t;
// Box<short>::get: short, a pointer; static_local: int, a pointer. The
// inline functions may be inlined into each caller, so the number of their
// notes depends on the optimization level; the noinline function and the
// template member keep exactly one note each after the link.
// NOTES: section .stapsdt.base addr=[[BASE:0x[0-9a-f]+]]
// NOTES-DAG: note provider=comdat name=inline_header {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-4@{{[^ ]+}} -8@{{[^ ]+$}}
// NOTES-DAG: note provider=comdat name=noinline_header {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=4@{{[^ ]+}} 1@{{[^ ]+$}}
// LP64-DAG: note provider=comdat name=box_get {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-2@{{[^ ]+}} 8@{{[^ ]+$}}
// LP64-DAG: note provider=comdat name=static_local {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-4@{{[^ ]+}} 8@{{[^ ]+$}}
// ILP32-DAG: note provider=comdat name=box_get {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-2@{{[^ ]+}} 4@{{[^ ]+$}}
// ILP32-DAG: note provider=comdat name=static_local {{.*}} base=[[BASE]] semaphore=0x0 argc=2 args=-4@{{[^ ]+}} 4@{{[^ ]+$}}
