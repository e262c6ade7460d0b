/* The bytes at every SDT site, read from live memory: the NOP before
 * enable, the jump (or trap) while enabled, exactly the NOP after disable;
 * each hit carries the arguments passed. Sites: a probe without arguments,
 * one with seven, one probe with two sites, a site in a static function and
 * one in another translation unit (patch-bytes-tu2.c).
 *
 * Usage: patch-bytes jump|trap [DUMP]. DUMP gets the main program's load
 * bias and, per site, its address, its record's target, the enabled bytes,
 * the probe and the function holding the site, for
 * lit-tests/tools/check-jumps.py. */
#include "jump-test.h"

SDT_PROVIDER_DEFINE(jb);
SDT_PROBE_DEFINE0(jb, pb, f, zero);
SDT_PROBE_DEFINE7(jb, pb, f, seven, "int8_t", "uint8_t", "int16_t",
                  "uint32_t", "int64_t", "char *", "unsigned long");
SDT_PROBE_DEFINE1(jb, pb, f, twice, "int");
SDT_PROBE_DEFINE1(jb, pb, f, static, "long");
SDT_PROBE_DEFINE2(jb, pb, f, other, "int", "const char *");

#define NPROBES 5
#define NSITES 6

/* The arguments the next hit must carry, set before each call. */
static const char *want_name;
static uint64_t want[XSDT_SDT_MAX_ARGS];
static int want_step; /* added to want[0] after each hit (`twice`) */
static int hits, mismatches;

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *args,
                   void *user) {
  RT_CHECK(user == &hits);
  ++hits;
  if (!want_name || strcmp(p->name, want_name) != 0) {
    printf("FAIL unexpected hit of %s (want %s)\n", p->id,
           want_name ? want_name : "none");
    ++mismatches;
    return;
  }
  for (int i = 0; i < XSDT_SDT_MAX_ARGS; ++i)
    if (args[i] != want[i]) {
      printf("FAIL %s arg %d: %#llx, want %#llx\n", p->id, i,
             (unsigned long long)args[i], (unsigned long long)want[i]);
      ++mismatches;
    }
  want[0] += (uint64_t)want_step;
}

static void expect_args(const char *name, uint64_t a0, uint64_t a1, uint64_t a2,
                        uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6) {
  want_name = name;
  want[0] = a0, want[1] = a1, want[2] = a2, want[3] = a3;
  want[4] = a4, want[5] = a5, want[6] = a6;
  want_step = 0;
}

JT_NOIPA void fire_zero(void) { SDT_PROBE0(jb, pb, f, zero); }

JT_NOIPA void fire_seven(int8_t a, uint8_t b, int16_t c,
                                          uint32_t d, int64_t e, char *s,
                                          unsigned long g) {
  SDT_PROBE7(jb, pb, f, seven, a, b, c, d, e, s, g);
}

/* Two sites of one probe, in two functions. One site per function: gcc
 * may copy an `asm goto` that follows another one's out-of-line block
 * into that block, which would add a site (see docs/design.md). */
JT_NOIPA void fire_twice_a(int x) { SDT_PROBE1(jb, pb, f, twice, x); }
JT_NOIPA void fire_twice_b(int x) { SDT_PROBE1(jb, pb, f, twice, x); }

static JT_NOIPA void fire_static(long x) {
  SDT_PROBE1(jb, pb, f, static, x);
}

/* patch-bytes-tu2.c */
extern const char tu2_text[];
void fire_other(int x, const char *s);

static char seven_text[] = "seven";

/* Fires every site once: 6 hits when all are enabled. */
static void fire_all(void) {
  expect_args("zero", 0, 0, 0, 0, 0, 0, 0);
  fire_zero();
  expect_args("seven", (uint64_t)-5, 250, (uint64_t)-300, 0xfffffff0u,
              (uint64_t)INT64_MIN, (uint64_t)(uintptr_t)seven_text,
              (uint64_t)(unsigned long)-1);
  fire_seven(-5, 250, -300, 0xfffffff0u, INT64_MIN, seven_text,
             (unsigned long)-1);
  expect_args("twice", 41, 0, 0, 0, 0, 0, 0);
  want_step = 1; /* 41, then 42 */
  fire_twice_a(41);
  fire_twice_b(42);
  expect_args("static", (uint64_t)-77, 0, 0, 0, 0, 0, 0);
  fire_static(-77);
  expect_args("other", 9, (uint64_t)(uintptr_t)tu2_text, 0, 0, 0, 0, 0);
  fire_other(9, tu2_text);
  want_name = NULL;
}

static struct jt_sites sites, now;
static char before[NSITES][32], enabled[NSITES][32], disabled[NSITES][32];

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  const char *dump = argc > 2 ? argv[2] : NULL;
  printf("mode %s\n", jt_mode_name(mode));

  jt_list_sites("jb:", &sites);
  printf("sites %d, invalid records %d\n", sites.n, jt_count_invalid());
  RT_CHECK(sites.n == NSITES);
  if (sites.n != NSITES)
    return rt_finish();
  for (int i = 0; i < sites.n; ++i) {
    jt_hex(before[i], sizeof before[i], sites.s[i].site);
    RT_CHECK(jt_is_nop(sites.s[i].site));
    RT_CHECK(sites.s[i].state == 0);
  }

  /* Disabled: no hit. */
  fire_all();
  RT_CHECK(hits == 0);

  JT_EXPECT(xsdt_sdt_enable("jb:::", mode, on_hit, &hits, &jt_err), NPROBES);
  jt_list_sites("jb:", &now);
  RT_CHECK(now.n == NSITES);
  for (int i = 0; i < sites.n && i < now.n; ++i) {
    jt_hex(enabled[i], sizeof enabled[i], sites.s[i].site);
    RT_CHECK(now.s[i].site == sites.s[i].site);
    RT_CHECK(now.s[i].state == mode);
    if (mode == XSDT_MODE_TRAP)
      RT_CHECK(jt_is_trap(sites.s[i].site));
    else
      RT_CHECK(!jt_is_nop(sites.s[i].site));
  }
  fire_all();
  int enabled_hits = hits;
  RT_CHECK(hits == NSITES);

  JT_EXPECT(xsdt_sdt_disable("jb:::", &jt_err), NPROBES);
  jt_list_sites("jb:", &now);
  for (int i = 0; i < sites.n; ++i) {
    jt_hex(disabled[i], sizeof disabled[i], sites.s[i].site);
    RT_CHECK(strcmp(disabled[i], before[i]) == 0);
    RT_CHECK(jt_is_nop(sites.s[i].site));
    RT_CHECK(i >= now.n || now.s[i].state == 0);
  }
  fire_all();
  RT_CHECK(hits == enabled_hits);

  for (int i = 0; i < sites.n; ++i)
    printf("site %s#%d at %#lx target %#lx: before: %s enabled: %s "
           "disabled: %s\n",
           sites.s[i].id, sites.s[i].index, (unsigned long)sites.s[i].site,
           (unsigned long)sites.s[i].target, before[i], enabled[i],
           disabled[i]);
  printf("hits %d enabled, %d after disable, %d mismatches\n", enabled_hits,
         hits - enabled_hits, mismatches);
  RT_CHECK(mismatches == 0);

  if (dump) {
    FILE *f = fopen(dump, "w");
    if (!f) {
      perror(dump);
      return 1;
    }
    fprintf(f, "bias %#lx\n", (unsigned long)jt_load_bias());
    for (int i = 0; i < sites.n; ++i)
      fprintf(f, "site %#lx target %#lx bytes %s id %s function %s\n",
              (unsigned long)sites.s[i].site, (unsigned long)sites.s[i].target,
              enabled[i], sites.s[i].id,
              sites.s[i].function[0] ? sites.s[i].function : "-");
    fclose(f);
  }
  return rt_finish();
}
