/* C++: the <sys/sdt.h> drop-in with bit-fields as arguments, signed and unsigned, 1 to 63 bits (bool and enum fields too), which sys/sdt.h rejects (it applies sizeof). */
#include <cstdint>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

enum Mode { ModeOff, ModeOn = 5 };

struct Fields {
  unsigned u1 : 1;
  int s1 : 1;
  bool b : 1;
  unsigned u3 : 3;
  signed s5 : 5;
  unsigned u8 : 8;
  int s9 : 9;
  unsigned u16 : 16;
  int s17 : 17;
  unsigned u31 : 31;
  int s32 : 32;
  unsigned u32 : 32;
  unsigned long long u33 : 33;
  long long s40 : 40;
  unsigned long long u63 : 63;
  long long s63 : 63;
  Mode m : 4;
};

volatile int src_seed = 1;

__attribute__((noinline)) void fill(Fields *f, int seed) {
  /* Each field's extreme: all ones, or its most negative value. */
  f->u1 = static_cast<unsigned>(seed);
  f->s1 = -seed;
  f->b = seed != 0;
  f->u3 = 7u * static_cast<unsigned>(seed);
  f->s5 = -16 * seed;
  f->u8 = 255u * static_cast<unsigned>(seed);
  f->s9 = -256 * seed;
  f->u16 = 65535u * static_cast<unsigned>(seed);
  f->s17 = -65536 * seed;
  f->u31 = 0x7fffffffu * static_cast<unsigned>(seed);
  f->s32 = INT32_MIN + seed - 1;
  f->u32 = 0xffffffffu * static_cast<unsigned>(seed);
  f->u33 = 0x1ffffffffULL * static_cast<unsigned>(seed);
  f->s40 = -(1LL << 39) * seed;
  f->u63 = 0x7fffffffffffffffULL * static_cast<unsigned>(seed);
  f->s63 = -(1LL << 62) * seed;
  f->m = seed ? ModeOn : ModeOff;
}

/* 4 probes: 12 + 5 + 4 + 3 = 24 arguments. */
__attribute__((noinline)) void probe_fields(const Fields *p, Fields s) {
  ORACLE_STAP_PROBE12(compat_bf_cxx, narrow, s.u1, s.s1, s.b, s.u3, s.s5, s.u8,
                      s.s9, s.u16, s.s17, s.u31, s.s32, s.u32);
  ORACLE_DTRACE_PROBE5(compat_bf_cxx, wide, s.u33, s.s40, s.u63, s.s63, s.m);
  ORACLE_STAP_PROBEV(compat_bf_cxx, through_pointer, p->s5, p->u16, p->s40,
                     p->u63);
  ORACLE_STAP_PROBE3(compat_bf_cxx, mixed, s.s9, s.s9 + 1,
                     static_cast<unsigned char>(s.u8));
}

int main() {
  Fields f;
  oracle_start();
  fill(&f, src_seed);
  probe_fields(&f, f);
  return 0;
}
