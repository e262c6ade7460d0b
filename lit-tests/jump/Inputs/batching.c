/* Patching is batched by page: enabling (or disabling) K sites costs one
 * mprotect to make each run of consecutive code pages writable and one to
 * restore it, however many sites lie there. The expectation is computed
 * from the run-time site addresses (a site may straddle two pages), not
 * assumed: six probes with a site each in one function here ("near"; gcc
 * may add copies of a site, see docs/design.md, so there may be more
 * sites), two in batching-far.c ("far"), linked after batching-pad.c's
 * 160 KiB of padding so that near and far are never on one run of pages.
 *
 * Prints per case the sites, their page runs and the mprotect calls that
 * enable and disable cost (xsdt_get_patch_stats() deltas).
 * Usage: batching jump|trap */
#include "jump-test.h"

SDT_PROVIDER_DEFINE(jp);
SDT_PROBE_DEFINE1(jp, p, f, a, "int");
SDT_PROBE_DEFINE1(jp, p, f, b, "int");
SDT_PROBE_DEFINE1(jp, p, f, c, "int");
SDT_PROBE_DEFINE1(jp, p, f, d, "int");
SDT_PROBE_DEFINE1(jp, p, f, e, "int");
SDT_PROBE_DEFINE1(jp, p, f, f, "int");
SDT_PROBE_DEFINE1(jp, p, f, g, "int");
SDT_PROBE_DEFINE1(jp, p, f, h, "int");

static int hits;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)a, (void)user;
  ++hits;
}

JT_NOIPA void fire_near(int x) {
  SDT_PROBE1(jp, p, f, a, x);
  SDT_PROBE1(jp, p, f, b, x + 1);
  SDT_PROBE1(jp, p, f, c, x + 2);
  SDT_PROBE1(jp, p, f, d, x + 3);
  SDT_PROBE1(jp, p, f, e, x + 4);
  SDT_PROBE1(jp, p, f, f, x + 5);
}
void fire_far(int x); /* batching-far.c: g and h */

static struct jt_sites sites;
static xsdt_mode mode;

/* The sites of the probes named by the one-letter names in `names`. */
static int select_sites(const char *names, uintptr_t *out) {
  int n = 0;
  for (int i = 0; i < sites.n; ++i) {
    const char *name = strrchr(sites.s[i].id, ':') + 1;
    if (strlen(name) == 1 && strchr(names, name[0]))
      out[n++] = sites.s[i].site;
  }
  return n;
}

/* Enables and disables pattern, which covers the probes in names; prints
 * the page runs of their sites and the mprotect calls each step cost. */
static int run_case(const char *what, const char *pattern, const char *names,
                    int nprobes) {
  uintptr_t pcs[JT_MAX_SITES];
  int n = select_sites(names, pcs);
  int runs = jt_page_runs(pcs, n);
  xsdt_patch_stats s0, s1, s2;
  xsdt_get_patch_stats(&s0);
  JT_EXPECT(xsdt_sdt_enable(pattern, mode, on_hit, NULL, &jt_err), nprobes);
  xsdt_get_patch_stats(&s1);
  int before = hits;
  fire_near(0);
  fire_far(0);
  /* Every probe fires once per fire_near + fire_far, on one of its sites. */
  RT_CHECK(hits - before == nprobes);
  RT_CHECK(n >= nprobes);
  JT_EXPECT(xsdt_sdt_disable(pattern, &jt_err), nprobes);
  xsdt_get_patch_stats(&s2);
  for (int i = 0; i < n; ++i)
    RT_CHECK(jt_is_nop(pcs[i]));
  long enable = (long)(s1.mprotect_calls - s0.mprotect_calls);
  long disable = (long)(s2.mprotect_calls - s1.mprotect_calls);
  printf("%s: %d probes, %d sites on %d page run%s\n", what, nprobes, n, runs,
         runs == 1 ? "" : "s");
  printf("%s: mprotect calls: enable %ld, disable %ld\n", what, enable,
         disable);
  printf("%s: site writes: enable %ld, disable %ld\n", what,
         (long)(s1.sites_written - s0.sites_written),
         (long)(s2.sites_written - s1.sites_written));
  RT_CHECK(enable == 2 * runs);
  RT_CHECK(disable == 2 * runs);
  /* Every site is written at least once each way. */
  RT_CHECK(s1.sites_written - s0.sites_written >= (uint64_t)n);
  RT_CHECK(s2.sites_written - s1.sites_written >= (uint64_t)n);
  return runs;
}

int main(int argc, char **argv) {
  mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  printf("mode %s, page size %ld\n", jt_mode_name(mode),
         sysconf(_SC_PAGESIZE));
  jt_list_sites("jp:", &sites);
  RT_CHECK(sites.n >= 8);

  run_case("one", "jp:p:f:a", "a", 1);
  run_case("near", "jp:::[a-f]", "abcdef", 6);
  run_case("far", "jp:::[gh]", "gh", 2);
  int runs = run_case("all", "jp:::", "abcdefgh", 8);
  /* The padding keeps near and far apart: the case of several runs ran. */
  printf("all: several runs: %s\n", runs >= 2 ? "yes" : "no");
  printf("hits %d\n", hits);
  return rt_finish();
}
