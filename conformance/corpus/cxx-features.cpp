// C++ arguments: references, template instantiations, enum class, bool, bit-fields, pointers, member functions, lambdas, and COMDAT-folded inline functions (linked with cxx-inline-a.cpp and cxx-inline-b.cpp).
#include <cstdint>
#include <xsdt/usdt.h>

#include "cxx-inline.h"
#include "../oracle/oracle.h"

enum class Color : int { Red = -1, Green = 2 };
enum class Small : unsigned char { One = 1, Big = 200 };

struct Point {
  double x;
  short y;
};

// In C++ a bit-field can be an argument (decltype gives its declared type);
// in C it cannot (aggregates.c).
struct Packed {
  unsigned flags : 5;
  int level : 7;
};

volatile int src_int = -41;
volatile double src_double = 6.25;
volatile int src_flag = 1;

__attribute__((noinline)) void references(int &r, const Point &p,
                                          const long long &cl,
                                          const uint16_t &cu) {
  r += 1;
  ORACLE_PROBE(cxx, references, r, p.x, p.y, cl, cu);
}

// One note per instantiation: int, double and const char *.
template <class T> __attribute__((noinline)) void each(T v) {
  ORACLE_PROBE(cxx, template_arg, v);
}

__attribute__((noinline)) void enums(Color c, Small s) {
  ORACLE_PROBE(cxx, enum_class, c, s);
}

__attribute__((noinline)) void bools(bool b, bool n) {
  ORACLE_PROBE(cxx, bools, b, n);
}

__attribute__((noinline)) void bitfields(const Packed &p) {
  ORACLE_PROBE(cxx, bitfields, p.flags, p.level);
}

__attribute__((noinline)) void pointers(const Point *p, int *ip,
                                        void (*fn)(bool, bool)) {
  ORACLE_PROBE(cxx, pointers, p, ip, fn);
}

class Counter {
public:
  explicit Counter(int start) : count_(start) {}
  __attribute__((noinline)) int bump(unsigned short by) {
    count_ += by;
    ORACLE_PROBE(cxx, member, count_, by);
    ORACLE_PROBE(cxx, member_this, this);
    return count_;
  }

private:
  int count_;
};

__attribute__((noinline)) long long use_lambda(int base) {
  long long total = base * 1000000000LL;
  auto add = [&total](int8_t step, float scale) {
    total += step;
    ORACLE_PROBE(cxx, lambda, total, step, scale);
  };
  add(static_cast<int8_t>(base), static_cast<float>(base) * 0.5f);
  return total;
}

int main() {
  oracle_start();
  int i = src_int;
  double d = src_double;
  bool flag = src_flag != 0;
  Point pt = {d, static_cast<short>(i)};
  long long ll = i * 3000000000LL;
  uint16_t u = static_cast<uint16_t>(i);
  references(i, pt, ll, u);
  each(i);
  each(d);
  each(static_cast<const char *>("text"));
  enums(flag ? Color::Red : Color::Green, flag ? Small::Big : Small::One);
  bools(flag, !flag);
  Packed packed = {static_cast<unsigned>(u) & 31u, i};
  bitfields(packed);
  pointers(&pt, &i, bools);
  Counter counter(i);
  counter.bump(static_cast<unsigned short>(u + 1));
  use_lambda(i);
  return call_from_a(i) + call_from_b(i) == 2 * (2 * i + 3) ? 0 : 1;
}
