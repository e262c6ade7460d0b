/* Values live across an enabled SDT(9) site survive its hit. The functions
 * below are leaves apart from the probe, with more values live across the
 * site than a call leaves in callee-saved registers (integers, doubles and
 * a long double), so that the compiler keeps some in the registers a call
 * clobbers: where an arch's <xsdt/arch/usdt.h> replaces the site's call by
 * an asm statement (XSDT_ARCH_SDT_CALLS), that statement must preserve
 * them itself, and the handler below clobbers what a callee may. Each site
 * also passes n arguments, checked against what the function computed.
 *
 * Usage: live-values jump|trap. Prints "live-values: N sites hit, M
 * mismatches"; exits 1 on any mismatch or when a site was not hit. */
#include "jump-test.h"

SDT_PROVIDER_DEFINE(jl);
SDT_PROBE_DEFINE0(jl, l, f, p0);
SDT_PROBE_DEFINE1(jl, l, f, p1, "long");
SDT_PROBE_DEFINE2(jl, l, f, p2, "signed char", "short");
SDT_PROBE_DEFINE3(jl, l, f, p3, "long", "long", "long");
SDT_PROBE_DEFINE4(jl, l, f, p4, "long", "long", "long", "void *");
SDT_PROBE_DEFINE5(jl, l, f, p5, "long", "long", "long", "long", "long");
SDT_PROBE_DEFINE6(jl, l, f, p6, "long", "long", "long", "long", "long", "long");
SDT_PROBE_DEFINE7(jl, l, f, p7, "long", "long", "long", "long", "long", "long",
                  "long");

static volatile long in[12];
static volatile double din[2];
static volatile long double ldin;
static uint64_t want[XSDT_SDT_MAX_ARGS];
static int want_argc = -1;
static int hits;
static long mismatches;
static volatile double sink_d;

/* Work that uses many integer and floating-point registers, as a handler
 * may. */
JT_NOIPA static double scramble(double x, long y) {
  double a = x * 1.5, b = x - 2.25, c = x / 3.0, d = x + 7.0;
  long p = y * 3, q = y ^ 0x5a5a, r = y + 11, s = y - 13, t = y * y;
  for (int i = 0; i < 4; ++i) {
    a = a * b + c;
    b = b - d * c;
    p = p * q + r;
    q = q ^ (s + t);
  }
  return a + b + c + d + (double)(p + q + r + s + t);
}

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *args,
                   void *user) {
  (void)user;
  ++hits;
  if (p->argc != want_argc) {
    printf("FAIL hit of %s with %d args, want %d\n", p->id, p->argc, want_argc);
    ++mismatches;
  }
  for (int i = 0; i < p->argc && i < XSDT_SDT_MAX_ARGS; ++i)
    if (args[i] != want[i]) {
      printf("FAIL %s arg %d: %#llx, want %#llx\n", p->id, i,
             (unsigned long long)args[i], (unsigned long long)want[i]);
      ++mismatches;
    }
  char buf[256];
  memset(buf, 0xa5, sizeof buf);
  sink_d = scramble((double)buf[hits % sizeof buf], (long)args[0]);
  want_argc = -1;
}

/* A leaf with the site of probe n: 10 integers, 2 doubles and a long double
 * computed before the site and used after it. */
#define LEAF(n, site)                                                          \
  JT_NOIPA static long leaf##n(void) {                                         \
    long v0 = in[0], v1 = in[1], v2 = in[2], v3 = in[3], v4 = in[4];           \
    long v5 = in[5], v6 = in[6], v7 = in[7], v8 = in[8], v9 = in[9];           \
    double d0 = din[0], d1 = din[1];                                           \
    long double ld = ldin;                                                     \
    signed char sc = (signed char)in[10];                                      \
    short sh = (short)in[11];                                                  \
    want[0] = (uint64_t)v2;                                                    \
    want[1] = (uint64_t)v1;                                                    \
    want[2] = (uint64_t)v0;                                                    \
    want[3] = (uint64_t)(uintptr_t)&in[3];                                     \
    want[4] = (uint64_t)v4;                                                    \
    want[5] = (uint64_t)v5;                                                    \
    want[6] = (uint64_t)(v6 + v9);                                             \
    want_argc = n;                                                             \
    site;                                                                      \
    return v0 + v1 * 3 + v2 * 5 + v3 * 7 + v4 * 11 + v5 * 13 + v6 * 17 +       \
           v7 * 19 + v8 * 23 + v9 * 29 + (long)(d0 * d1) + (long)(ld * 3) +    \
           sc + sh;                                                            \
  }
LEAF(0, SDT_PROBE0(jl, l, f, p0))
LEAF(1, SDT_PROBE1(jl, l, f, p1, v2))
LEAF(2, want[0] = (uint64_t)(int64_t)sc; want[1] = (uint64_t)(int64_t)sh;
     SDT_PROBE2(jl, l, f, p2, sc, sh))
LEAF(3, SDT_PROBE3(jl, l, f, p3, v2, v1, v0))
LEAF(4, SDT_PROBE4(jl, l, f, p4, v2, v1, v0, &in[3]))
LEAF(5, SDT_PROBE5(jl, l, f, p5, v2, v1, v0, (long)(uintptr_t)&in[3], v4))
LEAF(6, SDT_PROBE6(jl, l, f, p6, v2, v1, v0, (long)(uintptr_t)&in[3], v4, v5))
LEAF(7, SDT_PROBE7(jl, l, f, p7, v2, v1, v0, (long)(uintptr_t)&in[3], v4, v5,
                   v6 + v9))

static long (*const leaves[])(void) = {leaf0, leaf1, leaf2, leaf3,
                                       leaf4, leaf5, leaf6, leaf7};
#define NLEAVES (int)(sizeof leaves / sizeof leaves[0])

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  for (int i = 0; i < 10; ++i)
    in[i] = (long)(0x0101010101010101ull * (unsigned)(i + 1)) ^ (argc << i);
  in[10] = -5 - argc;
  in[11] = -300 - argc;
  din[0] = 3.0 + argc;
  din[1] = 7.0;
  ldin = 11.0L + argc;

  long disabled[NLEAVES];
  for (int i = 0; i < NLEAVES; ++i)
    disabled[i] = leaves[i]();
  if (hits) {
    printf("FAIL %d hits while disabled\n", hits);
    ++mismatches;
  }
  JT_EXPECT(xsdt_sdt_enable("jl:::", mode, on_hit, NULL, &jt_err), NLEAVES);
  for (int i = 0; i < NLEAVES; ++i) {
    int before = hits;
    long got = leaves[i]();
    if (hits != before + 1) {
      printf("FAIL leaf%d: %d hits, want 1\n", i, hits - before);
      ++mismatches;
    }
    if (got != disabled[i]) {
      printf("FAIL leaf%d: %#lx enabled, %#lx disabled: a live value was "
             "lost\n",
             i, got, disabled[i]);
      ++mismatches;
    }
  }
  JT_EXPECT(xsdt_sdt_disable("jl:::", &jt_err), NLEAVES);
  printf("live-values: %d sites hit, %ld mismatches\n", hits, mismatches);
  return mismatches || rt_failures || hits != NLEAVES;
}
