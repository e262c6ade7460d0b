/* mprotect refused in the middle of a batch. Five probes, three in this
 * file and two in far.c behind pad.c's 160 KiB, so that every enable and
 * disable of all of them is one batch of two page runs: two mprotect calls
 * that make the runs writable, then two that restore them (docs/runtime.md,
 * "The code patcher"). The program wraps mprotect (-Wl,--wrap=mprotect)
 * and refuses, with EACCES (what a W^X policy returns), the k-th call of
 * one enable, for every k, then of one disable. Each failed call must
 * return -1 with XSDT_ERR_PROTECT and a message naming mprotect and the
 * errno, and leave every site holding the bytes it held before and every
 * page with the protection it had or its segment's in /proc/self/maps
 * (fault-test.h);
 * the probes keep their state (a failed enable: nothing fires; a failed disable: every
 * probe still fires).
 *
 * Every byte stored must reach instruction fetch: a refused restore (after
 * the sites were written) writes each page run twice, the new bytes and
 * then the old ones put back, and each pass is flushed; a refused
 * make-writable writes nothing and flushes nothing. Each call prints the
 * flushes it made (xsdt_get_patch_stats).
 *
 * "sticky": every restoring mprotect from the first one on is refused.
 * The sites must still get their old bytes back (the pages are writable),
 * the call fails with XSDT_ERR_PROTECT, and the pages stay writable, since
 * nothing can restore them; the next call that can restore them does.
 *
 * Usage: mprotect jump|trap [sticky] */
#include "fault-test.h"

SDT_PROVIDER_DEFINE(fm);
SDT_PROBE_DEFINE2(fm, m, f, a, "int", "int");
SDT_PROBE_DEFINE2(fm, m, f, b, "int", "int");
SDT_PROBE_DEFINE2(fm, m, f, c, "int", "int");
SDT_PROBE_DEFINE2(fm, m, f, d, "int", "int");
SDT_PROBE_DEFINE2(fm, m, f, e, "int", "int");
#define NPROBES 5

/* ---- The fault ----------------------------------------------------------- */

static int fail_at; /* the call (from 1) to refuse; 0: none */
static int sticky;  /* refuse every restoring call from fail_at on */
static int calls;   /* calls since refuse_call() */

int __real_mprotect(void *addr, size_t len, int prot);
int __wrap_mprotect(void *addr, size_t len, int prot);
int __wrap_mprotect(void *addr, size_t len, int prot) {
  if (fail_at) {
    ++calls;
    int restoring = !(prot & PROT_WRITE);
    if (calls == fail_at || (sticky && restoring && calls >= fail_at)) {
      errno = EACCES;
      return -1;
    }
  }
  return __real_mprotect(addr, len, prot);
}

static void refuse_call(int k) {
  fail_at = k;
  calls = 0;
}

/* ---- The probes ---------------------------------------------------------- */

static int hits, bad_values;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)user;
  /* Every probe passes (x + i, 3x + i) for its index i; fire() uses x = 7. */
  if ((int)a[1] - 3 * 7 != (int)a[0] - 7)
    ++bad_values;
  ++hits;
}

JT_NOIPA void fire_near(int x) {
  SDT_PROBE2(fm, m, f, a, x, 3 * x);
  SDT_PROBE2(fm, m, f, b, x + 1, 3 * x + 1);
  SDT_PROBE2(fm, m, f, c, x + 2, 3 * x + 2);
}
void fire_far(int x); /* far.c: d and e */

/* The hits of one call of every probe. */
static int fire(void) {
  int before = hits;
  fire_near(7);
  fire_far(7);
  return hits - before;
}

static struct jt_sites sites;

static uint64_t flushes_so_far(void) {
  xsdt_patch_stats stats;
  xsdt_get_patch_stats(&stats);
  return stats.icache_flushes;
}

/* One call with the k-th mprotect refused; prints its result and what it
 * left. `state` is what every site must still be listed as. */
static void faulty(const char *what, int k, int runs, xsdt_mode mode,
                   xsdt_mode state) {
  struct ft_state before;
  xsdt_error err;
  ft_capture(&before, &sites);
  const uint64_t flushed_before = flushes_so_far();
  refuse_call(k);
  int r = what[0] == 'e' ? xsdt_sdt_enable("fm:::", mode, on_hit, NULL, &err)
                         : xsdt_sdt_disable("fm:::", &err);
  refuse_call(0);
  const uint64_t flushes = flushes_so_far() - flushed_before;
  char label[96];
  snprintf(label, sizeof label, "%s, mprotect #%d refused (%s)", what, k,
           k <= runs ? "make writable" : "restore");
  ft_print_result(label, r, &err);
  RT_CHECK(r == -1 && err.code == XSDT_ERR_PROTECT);
  RT_CHECK(strstr(err.message, "mprotect") && strstr(err.message, strerror(EACCES)));
  int changed = ft_changed(&before);
  int wrong_state = ft_not_in_state("fm:", state);
  int fired = fire();
  printf("  sites as before: %s, state as before: %s, hits %d\n",
         changed ? "NO" : "yes", wrong_state ? "NO" : "yes", fired);
  printf("  page runs flushed: %llu\n", (unsigned long long)flushes);
  RT_CHECK(changed == 0 && wrong_state == 0);
  RT_CHECK(flushes == (uint64_t)(k <= runs ? 0 : 2 * runs));
  RT_CHECK(fired == (state ? NPROBES : 0));
}

int main(int argc, char **argv) {
  xsdt_mode mode = jt_parse_mode(argc > 1 ? argv[1] : NULL);
  const int sticky_run = argc > 2 && strcmp(argv[2], "sticky") == 0;
  jt_list_sites("fm:", &sites);
  uintptr_t pcs[JT_MAX_SITES];
  for (int i = 0; i < sites.n; ++i)
    pcs[i] = sites.s[i].site;
  int runs = jt_page_runs(pcs, sites.n);
  int probes = 0; /* distinct ids (the compiler may copy a site) */
  for (int i = 0; i < sites.n; ++i)
    probes += sites.s[i].index == 0;
  printf("mode %s: %d probes, their sites on %d page runs\n",
         jt_mode_name(mode), probes, runs);
  struct ft_state initial;
  ft_capture(&initial, &sites);
  xsdt_error err;

  if (sticky_run) {
    /* Every restore refused: the sites are put back, the pages cannot be. */
    struct ft_state before;
    ft_capture(&before, &sites);
    const uint64_t flushed_before = flushes_so_far();
    sticky = 1;
    refuse_call(runs + 1);
    int r = xsdt_sdt_enable("fm:::", mode, on_hit, NULL, &err);
    refuse_call(0);
    const uint64_t flushes = flushes_so_far() - flushed_before;
    ft_print_result("enable, every restore refused", r, &err);
    RT_CHECK(r == -1 && err.code == XSDT_ERR_PROTECT);
    int nop = 0, writable = 0;
    for (int i = 0; i < sites.n; ++i) {
      char prot[5];
      nop += jt_is_nop(sites.s[i].site);
      ft_maps_prot(sites.s[i].site, prot);
      writable += prot[1] == 'w';
    }
    printf("  sites at their NOP: %s, pages left writable: %s, hits %d\n",
           nop == sites.n ? "all" : "NOT ALL", writable == sites.n ? "all" : "not all",
           fire());
    printf("  page runs flushed: %llu\n", (unsigned long long)flushes);
    RT_CHECK(flushes == (uint64_t)(2 * runs));
    RT_CHECK(ft_not_in_state("fm:", 0) == 0);
    sticky = 0;
  } else {
    for (int k = 1; k <= 2 * runs; ++k)
      faulty("enable", k, runs, mode, 0);
  }

  RT_EXPECT_RESULT(xsdt_sdt_enable("fm:::", mode, on_hit, NULL, &err), NPROBES, &err);
  int fired = fire();
  printf("enable: %d probes fire, values right: %s\n", fired,
         bad_values ? "NO" : "yes");
  RT_CHECK(fired == NPROBES && bad_values == 0);
  if (!sticky_run)
    for (int k = 1; k <= 2 * runs; ++k)
      faulty("disable", k, runs, mode, mode);
  RT_EXPECT_RESULT(xsdt_sdt_disable("fm:::", &err), NPROBES, &err);
  fired = fire();
  int changed = ft_changed(&initial);
  printf("disable: hits %d, sites and pages as at the start: %s\n", fired,
         changed ? "NO" : "yes");
  RT_CHECK(fired == 0 && changed == 0);
  return rt_finish();
}
