/* The <sys/sdt.h> drop-in with bit-fields as arguments, signed and unsigned, 1 to 63 bits (_Bool and enum fields too), which sys/sdt.h and XSDT_PROBE reject in C. */
#include <stdint.h>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"

/* In C a bit-field's value is of the field's own type, which sizeof and
 * __typeof__ do not take; the oracle records it as the header passes it,
 * the field as a plain value, ((void)0, field): its size is the compiler's
 * (gcc: the narrowest of 1, 2, 4, 8 bytes that holds the field; clang: the
 * declared type), its sign and value the field's. The probe itself gets the
 * field, unconverted. */
#define VALUE(field) ((void)0, (field))

enum mode { MODE_OFF, MODE_ON = 5 };

struct fields {
  unsigned u1 : 1;
  int s1 : 1;
  _Bool b : 1;
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
  enum mode m : 4;
};

volatile int src_seed = 1;

__attribute__((noinline)) void fill(struct fields *f, int seed) {
  /* Each field's extreme: all ones, or its most negative value. */
  f->u1 = (unsigned)seed;
  f->s1 = -seed;
  f->b = seed;
  f->u3 = 7u * (unsigned)seed;
  f->s5 = -16 * seed;
  f->u8 = 255u * (unsigned)seed;
  f->s9 = -256 * seed;
  f->u16 = 65535u * (unsigned)seed;
  f->s17 = -65536 * seed;
  f->u31 = 0x7fffffffu * (unsigned)seed;
  f->s32 = INT32_MIN + seed - 1;
  f->u32 = 0xffffffffu * (unsigned)seed;
  f->u33 = 0x1ffffffffULL * (unsigned)seed;
  f->s40 = -(1LL << 39) * seed;
  f->u63 = 0x7fffffffffffffffULL * (unsigned)seed;
  f->s63 = -(1LL << 62) * seed;
  f->m = seed ? MODE_ON : MODE_OFF;
}

/* 4 probes: 12 + 5 + 4 + 3 = 24 arguments. */
__attribute__((noinline)) void probe_fields(const struct fields *p,
                                            struct fields s) {
  ORACLE_GENERATED(
      STAP_PROBE12(compat_bf, narrow, s.u1, s.s1, s.b, s.u3, s.s5, s.u8, s.s9,
                   s.u16, s.s17, s.u31, s.s32, s.u32),
      compat_bf, narrow, VALUE(s.u1), VALUE(s.s1), VALUE(s.b), VALUE(s.u3),
      VALUE(s.s5), VALUE(s.u8), VALUE(s.s9), VALUE(s.u16), VALUE(s.s17),
      VALUE(s.u31), VALUE(s.s32), VALUE(s.u32));
  ORACLE_GENERATED(
      DTRACE_PROBE5(compat_bf, wide, s.u33, s.s40, s.u63, s.s63, s.m),
      compat_bf, wide, VALUE(s.u33), VALUE(s.s40), VALUE(s.u63), VALUE(s.s63),
      VALUE(s.m));
  ORACLE_GENERATED(STAP_PROBEV(compat_bf, through_pointer, p->s5, p->u16,
                               p->s40, p->u63),
                   compat_bf, through_pointer, VALUE(p->s5), VALUE(p->u16),
                   VALUE(p->s40), VALUE(p->u63));
  /* Mixed with plain values and expressions of fields (ordinary C types). */
  ORACLE_GENERATED(STAP_PROBE3(compat_bf, mixed, s.s9, s.s9 + 1,
                               (unsigned char)s.u8),
                   compat_bf, mixed, VALUE(s.s9), s.s9 + 1,
                   (unsigned char)s.u8);
}

int main(void) {
  struct fields f;
  oracle_start();
  fill(&f, src_seed);
  probe_fields(&f, f);
  return 0;
}
