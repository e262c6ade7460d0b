/* The value oracle for SDT(9) sites: every argument a handler receives
 * equals what the SOURCE passed. Each site below assigns every argument
 * expression once to a local of the argument's type, records the expected
 * 64-bit value from that local's bytes and its type's signedness (sign-
 * extended for signed types, zero-extended for unsigned ones, bool and
 * pointers), independently of <xsdt/sdt.h>'s conversion, then fires the
 * probe with the locals. An argument that must be evaluated only while the
 * probe is enabled (a call with a counter) is passed directly.
 *
 * Usage: values jump|trap. Runs every site disabled (no hit, the expensive
 * argument never evaluated), enabled in the given mode (each site hit once
 * per execution with its own values), disabled again. Prints
 * "sdt-values: N sites, M args verified, K mismatches"; exits 1 on any
 * mismatch or when nothing was verified. */
#include "jump-test.h"

#include <limits.h>
#include <stdbool.h>

SDT_PROVIDER_DEFINE(jv);
SDT_PROBE_DEFINE0(jv, v, f, none);
SDT_PROBE_DEFINE4(jv, v, f, narrow, "int8_t", "uint8_t", "int16_t",
                  "uint16_t");
SDT_PROBE_DEFINE4(jv, v, f, wide, "int32_t", "uint32_t", "int64_t",
                  "uint64_t");
SDT_PROBE_DEFINE7(jv, v, f, kinds, "char", "signed char", "unsigned char",
                  "bool", "enum neg", "enum big", "short");
SDT_PROBE_DEFINE3(jv, v, f, longs, "long", "unsigned long", "long long");
SDT_PROBE_DEFINE4(jv, v, f, ptrs, "void *", "const char *", "void *",
                  "void *");
SDT_PROBE_DEFINE5(jv, v, f, consts, "int", "long long", "unsigned",
                  "int64_t", "uint64_t");
SDT_PROBE_DEFINE4(jv, v, f, globals, "int8_t", "uint16_t", "int64_t",
                  "void *");
SDT_PROBE_DEFINE7(jv, v, f, seven, "int8_t", "uint16_t", "int32_t",
                  "uint32_t", "int64_t", "uint64_t", "void *");
SDT_PROBE_DEFINE2(jv, v, f, expensive, "int", "int");
SDT_PROBE_DEFINE2(jv, v, f, loop, "int", "long");

enum neg { NEG_LOW = -3, NEG_HIGH = 5 };
enum big { BIG_LOW = 1, BIG_HIGH = 0x80000000u };

/* ---- The truth table ----------------------------------------------------- */

struct truth {
  const char *name; /* the probe */
  int line;         /* the site in this file */
  int argc;
  uint64_t want[XSDT_SDT_MAX_ARGS];
  int hits;       /* while armed */
  int good_hits;  /* hits with every argument as passed */
  int registered; /* in sites[] */
};

#define MAX_TRUTH 32
static struct truth *sites[MAX_TRUTH];
static int nsites;
static struct truth *armed; /* the site about to fire */
static int expect_hits;     /* 1 while the probes are enabled */
static long args_verified, mismatches;

/* The expected value of an integer, bool or enum local: its bytes in the
 * arch's order (big-endian on s390x), sign-extended when its type is
 * signed. */
static uint64_t int_bits(const void *v, size_t size, int is_signed) {
  const unsigned char *bytes = (const unsigned char *)v;
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) {
    size_t significance =
        __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? size - 1 - i : i;
    bits |= (uint64_t)bytes[i] << (8 * significance);
  }
  if (size < 8 && is_signed && (bits >> (8 * size - 1)) & 1)
    bits |= ~(uint64_t)0 << (8 * size);
  return bits;
}
/* (T)-1 < (T)1: signed, without a comparison against 0 (-Wtype-limits). */
#define TI(T, v) int_bits(&(v), sizeof(T), (T)-1 < (T)1)
#define TP(T, v) ((uint64_t)(uintptr_t)(v))

static void expect_truth(struct truth *t, const uint64_t *want) {
  if (!t->registered && nsites < MAX_TRUTH) {
    sites[nsites++] = t;
    t->registered = 1;
  }
  memcpy(t->want, want, sizeof t->want);
  t->hits = 0;
  armed = t;
}

/* After the site ran: one hit when enabled, none when disabled. */
static void disarm(struct truth *t) {
  armed = NULL;
  if (t->hits != expect_hits) {
    printf("FAIL site %s at line %d: %d hits, want %d\n", t->name, t->line,
           t->hits, expect_hits);
    ++mismatches;
  }
}

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *args,
                   void *user) {
  (void)user;
  struct truth *t = armed;
  if (!t) {
    printf("FAIL hit of %s with no site armed\n", p->id);
    ++mismatches;
    return;
  }
  ++t->hits;
  if (strcmp(p->name, t->name) != 0 || p->argc != t->argc) {
    printf("FAIL site %s at line %d: hit of %s with %d args\n", t->name,
           t->line, p->id, p->argc);
    ++mismatches;
    return;
  }
  int bad = 0;
  for (int i = 0; i < XSDT_SDT_MAX_ARGS; ++i) {
    /* unused arguments are 0 */
    uint64_t want = i < t->argc ? t->want[i] : 0;
    if (args[i] != want) {
      printf("FAIL site %s at line %d arg %d: %#llx, want %#llx\n", t->name,
             t->line, i, (unsigned long long)args[i],
             (unsigned long long)want);
      ++mismatches;
      ++bad;
    } else if (i < t->argc) {
      ++args_verified;
    }
  }
  t->good_hits += !bad;
}

/* ---- Sites that record their truth --------------------------------------- */

#define TV_BEGIN_(name, n)                                                     \
  do {                                                                         \
    static struct truth tv_site_ = {#name, __LINE__, n, {0}, 0, 0, 0};            \
    uint64_t tv_want_[XSDT_SDT_MAX_ARGS] = {0};
#define TV_END_(probe_call)                                                    \
  expect_truth(&tv_site_, tv_want_);                                           \
  probe_call;                                                                  \
  disarm(&tv_site_);                                                           \
  }                                                                            \
  while (0)
#define TV_(i, K, T, e)                                                        \
  T tv##i##_ = (e);                                                            \
  tv_want_[i] = K(T, tv##i##_);

#define FIRE0(name)                                                            \
  TV_BEGIN_(name, 0) TV_END_(SDT_PROBE0(jv, v, f, name))
#define FIRE2(name, K0, T0, e0, K1, T1, e1)                                    \
  TV_BEGIN_(name, 2)                                                           \
  TV_(0, K0, T0, e0)                                                           \
  TV_(1, K1, T1, e1) TV_END_(SDT_PROBE2(jv, v, f, name, tv0_, tv1_))
#define FIRE3(name, K0, T0, e0, K1, T1, e1, K2, T2, e2)                        \
  TV_BEGIN_(name, 3)                                                           \
  TV_(0, K0, T0, e0)                                                           \
  TV_(1, K1, T1, e1)                                                           \
  TV_(2, K2, T2, e2) TV_END_(SDT_PROBE3(jv, v, f, name, tv0_, tv1_, tv2_))
#define FIRE4(name, K0, T0, e0, K1, T1, e1, K2, T2, e2, K3, T3, e3)            \
  TV_BEGIN_(name, 4)                                                           \
  TV_(0, K0, T0, e0)                                                           \
  TV_(1, K1, T1, e1)                                                           \
  TV_(2, K2, T2, e2)                                                           \
  TV_(3, K3, T3, e3)                                                           \
  TV_END_(SDT_PROBE4(jv, v, f, name, tv0_, tv1_, tv2_, tv3_))
#define FIRE5(name, K0, T0, e0, K1, T1, e1, K2, T2, e2, K3, T3, e3, K4, T4,    \
              e4)                                                              \
  TV_BEGIN_(name, 5)                                                           \
  TV_(0, K0, T0, e0)                                                           \
  TV_(1, K1, T1, e1)                                                           \
  TV_(2, K2, T2, e2)                                                           \
  TV_(3, K3, T3, e3)                                                           \
  TV_(4, K4, T4, e4)                                                           \
  TV_END_(SDT_PROBE5(jv, v, f, name, tv0_, tv1_, tv2_, tv3_, tv4_))
#define FIRE7(name, K0, T0, e0, K1, T1, e1, K2, T2, e2, K3, T3, e3, K4, T4,    \
              e4, K5, T5, e5, K6, T6, e6)                                      \
  TV_BEGIN_(name, 7)                                                           \
  TV_(0, K0, T0, e0)                                                           \
  TV_(1, K1, T1, e1)                                                           \
  TV_(2, K2, T2, e2)                                                           \
  TV_(3, K3, T3, e3)                                                           \
  TV_(4, K4, T4, e4)                                                           \
  TV_(5, K5, T5, e5)                                                           \
  TV_(6, K6, T6, e6)                                                           \
  TV_END_(SDT_PROBE7(jv, v, f, name, tv0_, tv1_, tv2_, tv3_, tv4_, tv5_,       \
                     tv6_))

/* ---- The program's sites ------------------------------------------------- */

/* Globals, set at run time so that they are read from memory. */
int8_t g_s8;
uint16_t g_u16;
int64_t g_i64;
void *g_ptr;
static const char literal[] = "literal";

static JT_NOIPA void fire_narrow(int8_t a, uint8_t b, int16_t c, uint16_t d) {
  FIRE4(narrow, TI, int8_t, a, TI, uint8_t, b, TI, int16_t, c, TI, uint16_t,
        d);
}

static JT_NOIPA void fire_wide(int32_t a, uint32_t b, int64_t c, uint64_t d) {
  FIRE4(wide, TI, int32_t, a, TI, uint32_t, b, TI, int64_t, c, TI, uint64_t,
        d);
}

static JT_NOIPA void fire_kinds(char a, signed char b, unsigned char c, bool d,
                                enum neg e, enum big f, short g) {
  FIRE7(kinds, TI, char, a, TI, signed char, b, TI, unsigned char, c, TI, bool,
        d, TI, enum neg, e, TI, enum big, f, TI, short, g);
}

static JT_NOIPA void fire_longs(long a, unsigned long b, long long c) {
  FIRE3(longs, TI, long, a, TI, unsigned long, b, TI, long long, c);
}

static JT_NOIPA void fire_ptrs(void) {
  FIRE4(ptrs, TP, void *, &g_i64, TP, const char *, literal, TP, void *, NULL,
        TP, void *, (void *)(uintptr_t)-1);
}

static JT_NOIPA void fire_consts(void) {
  FIRE5(consts, TI, int, -1, TI, long long, LLONG_MIN, TI, unsigned, UINT_MAX,
        TI, int64_t, INT64_MAX, TI, uint64_t, 0x8000000000000001ull);
}

static JT_NOIPA void fire_globals(void) {
  FIRE4(globals, TI, int8_t, g_s8, TI, uint16_t, g_u16, TI, int64_t, g_i64, TP,
        void *, g_ptr);
}

static JT_NOIPA void fire_seven(int k) {
  FIRE7(seven, TI, int8_t, (int8_t)(k - 128), TI, uint16_t,
        (uint16_t)(0xfffe + k), TI, int32_t, INT32_MIN + k, TI, uint32_t,
        0xdeadbeefu + (uint32_t)k, TI, int64_t, -0x123456789ll * k, TI,
        uint64_t, 0xfedcba9876543210ull + (uint64_t)k, TP, void *,
        (void *)((uintptr_t)&g_s8 + (uintptr_t)k));
}

/* An argument that costs: evaluated only on the enabled path. */
static int expensive_calls;
static JT_NOIPA int expensive(int i) {
  ++expensive_calls;
  return i * 3 + 1;
}

#define EXPENSIVE_HITS 4
static JT_NOIPA void fire_expensive(void) {
  for (int i = 0; i < EXPENSIVE_HITS; ++i) {
    TV_BEGIN_(expensive, 2)
    /* the truth, computed here without calling expensive() */
    tv_want_[0] = (uint64_t)(int64_t)(i * 3 + 1);
    tv_want_[1] = (uint64_t)(int64_t)i;
    TV_END_(SDT_PROBE2(jv, v, f, expensive, expensive(i), i));
  }
}

#define LOOP_HITS 10
static JT_NOIPA void fire_loop(int n) {
  for (int i = 0; i < n; ++i)
    FIRE2(loop, TI, int, i, TI, long, (long)i * -7);
}

static void fire_all(void) {
  FIRE0(none);
  fire_narrow(-128, 255, -32768, 65535);
  fire_narrow(-1, 0x80, 0x7fff, 0x8000);
  fire_wide(INT32_MIN, UINT32_MAX, INT64_MIN, UINT64_MAX);
  fire_wide(-2, 0x80000000u, 0x123456789abcdef0ll, 0x8000000000000000ull);
  fire_kinds('\xff', -128, 200, true, NEG_LOW, BIG_HIGH, -2);
  fire_kinds('A', 127, 0, false, NEG_HIGH, BIG_LOW, SHRT_MIN);
  fire_longs(LONG_MIN, ULONG_MAX, LLONG_MIN);
  fire_longs(-3, 0x7fffffffUL, -0x100000000ll);
  fire_ptrs();
  fire_consts();
  fire_globals();
  fire_seven(3);
  fire_expensive();
  fire_loop(LOOP_HITS);
}

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  g_s8 = (int8_t)(-100 - argc);
  g_u16 = (uint16_t)(60000 + argc);
  g_i64 = -0x0123456789abcdefll * argc;
  g_ptr = &g_u16;

  expect_hits = 0;
  fire_all();
  int calls_disabled = expensive_calls;

  JT_EXPECT(xsdt_sdt_enable("jv:::", mode, on_hit, NULL, &jt_err), 11);
  expect_hits = 1;
  fire_all();
  int calls_enabled = expensive_calls - calls_disabled;
  JT_EXPECT(xsdt_sdt_disable("jv:::", &jt_err), 11);

  expect_hits = 0;
  fire_all();
  int calls_after = expensive_calls - calls_disabled - calls_enabled;

  int verified_sites = 0;
  for (int i = 0; i < nsites; ++i)
    verified_sites += sites[i]->good_hits > 0;
  printf("mode %s\n", jt_mode_name(mode));
  printf("expensive(): %d calls disabled, %d enabled, %d after disable\n",
         calls_disabled, calls_enabled, calls_after);
  if (calls_disabled || calls_after || calls_enabled != EXPENSIVE_HITS)
    ++mismatches;
  printf("sdt-values: %d sites, %ld args verified, %ld mismatches\n",
         verified_sites, args_verified, mismatches);
  return mismatches || args_verified == 0 || rt_failures ? 1 : 0;
}
