/* Disabled cost of an SDT(9) jump site (<xsdt/sdt.h>): built once with
 * XSDT_COST_PROBES undefined (no probe) and once with it defined, then
 * sdt-cost.py counts the instructions on the fall-through path of each
 * function (entry to return, the way a disabled probe runs) in both builds.
 *
 * The functions are straight-line apart from the probe, so that their hot
 * path is one trace the script can follow without guessing branch outcomes.
 * sink(), sink2() and expensive() are external: the compiler can neither
 * see their bodies nor drop or move their calls.
 *
 * "leaf": no call besides the probe's out-of-line one, so the probe is what
 * turns the function into a caller.
 * "nonleaf": the probe sits between two calls the function makes anyway,
 * and its arguments are values that live across those calls without the
 * probe (so they already are in callee-saved registers or stack slots).
 */
#ifdef XSDT_COST_PROBES
#ifdef XSDT_COST_MUTANT
/* sdt-cost.py --check proves it can fail: this build evaluates a probe's
 * arguments before the site, as a header without asm goto would, and the
 * script must then find expensive() on the hot path. */
#define XSDT_SDT_NO_BARE_NAMES
#endif
#include <xsdt/sdt.h>
#endif

int sink(int);
int sink2(int);
long sink7(long, long, long, long, long, long, long);
int expensive(int);

#ifdef XSDT_COST_PROBES
XSDT_SDT_PROVIDER_DEFINE(cost);
XSDT_SDT_PROBE_DEFINE3(cost, , leaf, regs, "int", "int", "int");
XSDT_SDT_PROBE_DEFINE7(cost, , leaf, seven, "long", "long", "long", "long",
                       "long", "long", "long");
XSDT_SDT_PROBE_DEFINE1(cost, , leaf, expensive, "int");
XSDT_SDT_PROBE_DEFINE2(cost, , nonleaf, regs, "int", "int");
XSDT_SDT_PROBE_DEFINE7(cost, , nonleaf, seven, "long", "long", "long", "long",
                       "long", "long", "long");
XSDT_SDT_PROBE_DEFINE2(cost, , nonleaf, expensive, "int", "int");
#ifdef XSDT_COST_MUTANT
/* Each argument computed into a variable the asm consumes before the site. */
#define COST_EAGER_(v, x)                                                      \
  uint64_t v = (uint64_t)(x);                                                  \
  __asm__ __volatile__("" : : "r"(v))
#define SDT_PROBE1(p, m, f, n, a0)                                             \
  do {                                                                         \
    COST_EAGER_(e0_, a0);                                                      \
    XSDT_SDT_PROBE1(p, m, f, n, e0_);                                          \
  } while (0)
#define SDT_PROBE2(p, m, f, n, a0, a1)                                         \
  do {                                                                         \
    COST_EAGER_(e0_, a0);                                                      \
    COST_EAGER_(e1_, a1);                                                      \
    XSDT_SDT_PROBE2(p, m, f, n, e0_, e1_);                                     \
  } while (0)
#define SDT_PROBE3 XSDT_SDT_PROBE3
#define SDT_PROBE7 XSDT_SDT_PROBE7
#endif
#define COST_PROBE(n, args) SDT_PROBE##n args
#else
#define COST_PROBE(n, args) ((void)0)
#endif

/* Register arguments, nothing else to do: the smallest function there is. */
int leaf_regs(int a, int b, int c) {
  int r = a * b + c;
  COST_PROBE(3, (cost, , leaf, regs, a, b, c));
  return r;
}

/* Seven arguments, more than the out-of-line call can take in registers on
 * some arches (the probe pointer is its first argument). */
long leaf_seven(long a, long b, long c, long d, long e, long f, long g) {
  long r = (a + b) * (c + d) + (e ^ f) - g;
  COST_PROBE(7, (cost, , leaf, seven, a, b, c, d, e, f, g));
  return r;
}

/* An argument that costs a call: it must be computed only when the probe
 * is enabled, never on the fall-through path. */
int leaf_expensive(int a) {
  COST_PROBE(1, (cost, , leaf, expensive, expensive(a)));
  return a + 1;
}

/* a and b are live across sink() without the probe: each is passed to a
 * call after it, which the compiler cannot hoist above sink(). */
int nonleaf_regs(int a, int b) {
  int r = sink(a + b);
  COST_PROBE(2, (cost, , nonleaf, regs, a, b));
  r += sink2(a);
  return r + sink2(b);
}

/* Seven values live across sink7() without the probe. */
long nonleaf_seven(long a, long b, long c, long d, long e, long f, long g) {
  long r = sink7(a, b, c, d, e, f, g);
  COST_PROBE(7, (cost, , nonleaf, seven, a, b, c, d, e, f, g));
  return r + sink7(g, f, e, d, c, b, a);
}

/* Both: a call already there and an argument that is a call of its own.
 * (Not the same body as nonleaf_regs without the probe, or -Os folds the
 * two functions into one.) */
int nonleaf_expensive(int a, int b) {
  int r = sink(a - b);
  COST_PROBE(2, (cost, , nonleaf, expensive, a, expensive(b)));
  r ^= sink2(b);
  return r + sink2(a);
}
