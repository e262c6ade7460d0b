/* Enable, hit, and compare every decoded argument with the value the
 * source passed: each integer width and sign, pointers, float and double,
 * constants (immediates) and values loaded from globals. */
/* Built with -DXSDT_FLOAT_SUFFIX (hit-values.test): floats with the `f`
 * mark (sys/sdt.h's spelling), which the decoder gives as doubles. xsdt's
 * default, the IEEE bits as an integer, is what the value oracle checks in
 * every cell. */
#ifndef XSDT_FLOAT_SUFFIX
#error "build with -DXSDT_FLOAT_SUFFIX"
#endif
#include "rt-test.h"

struct seen {
  int hits;
  int argc;
  xsdt_arg args[XSDT_MAX_ARGS];
};

static void on_hit(const xsdt_probe_info *probe, int argc, const xsdt_arg *args,
                   void *user) {
  struct seen *s = (struct seen *)user;
  (void)probe;
  s->hits++;
  s->argc = argc;
  memcpy(s->args, args, sizeof(xsdt_arg) * (size_t)argc);
}

__attribute__((noinline)) void fire_ints(signed char a, unsigned char b,
                                         short c, unsigned short d, int e,
                                         unsigned f, long long g,
                                         unsigned long long h, const char *p) {
  XSDT_PROBE(vals, ints, a, b, c, d, e, f, g, h, p);
}

__attribute__((noinline)) void fire_floats(float f, double d, int after) {
  XSDT_PROBE(vals, floats, f, d, after);
}

__attribute__((noinline)) void fire_constants(void) {
  XSDT_PROBE(vals, constants, -7, 200u, (signed char)-100, (unsigned char)200,
             (short)-2, 4000000000u, -5000000000LL, 0xfedcba9876543210ULL);
}

volatile int g_int = -123456;
volatile unsigned long long g_u64 = 0x8000000000000001ULL;
volatile double g_double = -0.5;

__attribute__((noinline)) void fire_globals(void) {
  XSDT_PROBE(vals, globals, g_int, g_u64, g_double);
}

static const char text[] = "xsdt";

#define SIGNED(i, v) RT_CHECK((int64_t)s.args[i].bits == (int64_t)(v))
#define UNSIGNED(i, v) RT_CHECK(s.args[i].bits == (uint64_t)(v))

int main(void) {
  xsdt_error err;
  struct seen s;
  memset(&s, 0, sizeof s);
  RT_EXPECT_RESULT(xsdt_enable("vals:*", on_hit, &s, &err), 4, &err);

  fire_ints(-5, 250, -300, 65000, -70000, 4000000000u, -5000000000LL,
            0xfedcba9876543210ULL, text);
  RT_CHECK(s.hits == 1);
  RT_CHECK(s.argc == 9);
  SIGNED(0, -5);
  UNSIGNED(1, 250);
  SIGNED(2, -300);
  UNSIGNED(3, 65000);
  SIGNED(4, -70000);
  UNSIGNED(5, 4000000000u);
  SIGNED(6, -5000000000LL);
  UNSIGNED(7, 0xfedcba9876543210ULL);
  UNSIGNED(8, (uintptr_t)text);
  RT_CHECK(s.args[0].size == 1 && s.args[0].is_signed);
  RT_CHECK(s.args[1].size == 1 && !s.args[1].is_signed);
  RT_CHECK(s.args[6].size == 8 && s.args[6].is_signed);
  RT_CHECK(s.args[8].size == (int)sizeof(void *) && !s.args[8].is_signed);
  for (int i = 0; i < 9; ++i)
    RT_CHECK(s.args[i].valid);
  printf("ints: %d args, hits %d\n", s.argc, s.hits);

  fire_floats(1.5f, -2.25, 77);
  RT_CHECK(s.hits == 2);
  RT_CHECK(s.argc == 3);
  RT_CHECK(s.args[0].is_float && s.args[0].size == 4);
  RT_CHECK(s.args[0].as_double == 1.5);
  RT_CHECK(s.args[1].is_float && s.args[1].size == 8);
  RT_CHECK(s.args[1].as_double == -2.25);
  SIGNED(2, 77);
  printf("floats: %g %g %d\n", s.args[0].as_double, s.args[1].as_double,
         (int)s.args[2].bits);

  fire_constants();
  RT_CHECK(s.hits == 3);
  RT_CHECK(s.argc == 8);
  SIGNED(0, -7);
  UNSIGNED(1, 200u);
  SIGNED(2, -100);
  UNSIGNED(3, 200);
  SIGNED(4, -2);
  UNSIGNED(5, 4000000000u);
  SIGNED(6, -5000000000LL);
  UNSIGNED(7, 0xfedcba9876543210ULL);
  printf("constants: %d args\n", s.argc);

  fire_globals();
  RT_CHECK(s.hits == 4);
  SIGNED(0, -123456);
  UNSIGNED(1, 0x8000000000000001ULL);
  RT_CHECK(s.args[2].as_double == -0.5);
  printf("globals: %d args\n", s.argc);

  RT_EXPECT_RESULT(xsdt_disable("vals:*", &err), 4, &err);
  fire_ints(1, 2, 3, 4, 5, 6, 7, 8, text);
  fire_constants();
  RT_CHECK(s.hits == 4);
  printf("after disable: hits %d\n", s.hits);
  return rt_finish();
}
