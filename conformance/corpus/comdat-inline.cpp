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
