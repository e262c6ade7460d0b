/* Out of memory while enabling. The program defines malloc, free, calloc
 * and realloc over glibc's (__libc_malloc and friends), so that every
 * allocation of libxsdt (operator new calls malloc) and of the libc calls
 * it makes goes through them. Armed with N, allocation number N and every
 * later one fail (ENOMEM, NULL). The sweep arms N = 0, 1, 2, ... around one
 * enable until it succeeds. Each failing enable must return -1 with
 * "out of memory" in its message, leave every site at its NOP and every
 * probe disabled (nothing fires), and free what it allocated, except what
 * the runtime keeps on purpose (docs/runtime.md: the probe registry and the
 * published tables are never freed); then the successful enable works: the
 * probe fires with the values the source passed, and disable restores the
 * NOP.
 *
 * The allocations of the failing enables (made while armed) are tracked
 * until freed; after the sweep, the probe's use and one more enable and
 * disable, those still live are counted: fewer than one per failing
 * enable, so no failing enable leaks. What stays is what the runtime keeps
 * for good by design (docs/runtime.md): after a warmed-up sweep, the SDT
 * part's table of trap entries (one allocation), and the USDT part's
 * tables of enabled sites and of sites ever patched, which it never frees
 * because a trap handler on another thread may be reading them (a bounded
 * leak per call).
 *
 * Then the same sweep around a disable: each failing disable leaves the
 * probe enabled (its site as it was, and it fires).
 *
 * Usage: oom usdt|jump|trap */
#include "fault-test.h"

#include <stddef.h>

/* ---- The fault ----------------------------------------------------------- */

void *__libc_malloc(size_t size);
void __libc_free(void *p);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static int armed;
static long fail_from, seen;

/* The allocations made while armed and not freed yet. */
#define FT_TRACKED 65536
static void *tracked[FT_TRACKED];
static long ntracked, overflow;

static void track(void *p) {
  if (ntracked < FT_TRACKED)
    tracked[ntracked++] = p;
  else
    ++overflow;
}

static void untrack(void *p) {
  for (long i = ntracked - 1; i >= 0; --i)
    if (tracked[i] == p) {
      tracked[i] = tracked[--ntracked];
      return;
    }
}

/* Whether this allocation must fail. */
static int refuse(void) {
  if (!armed)
    return 0;
  if (seen++ >= fail_from) {
    errno = ENOMEM;
    return 1;
  }
  return 0;
}

void *malloc(size_t size) {
  if (refuse())
    return NULL;
  void *p = __libc_malloc(size);
  if (armed && p)
    track(p);
  return p;
}

void *calloc(size_t n, size_t size) {
  if (refuse())
    return NULL;
  void *p = __libc_calloc(n, size);
  if (armed && p)
    track(p);
  return p;
}

void *realloc(void *old, size_t size) {
  if (refuse())
    return NULL;
  void *p = __libc_realloc(old, size);
  if (p && old)
    untrack(old);
  if (armed && p)
    track(p);
  return p;
}

void free(void *p) {
  if (p)
    untrack(p);
  __libc_free(p);
}

/* ---- The probes ---------------------------------------------------------- */

SDT_PROVIDER_DEFINE(fo);
SDT_PROBE_DEFINE2(fo, m, f, s, "int", "long");

JT_NOIPA void fire(int x) {
  XSDT_PROBE(fo, u, x, (long)x * 11);
  SDT_PROBE2(fo, m, f, s, x, (long)x * 11);
}

static int hits;
static int64_t got[2];
static void on_usdt(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                    void *u) {
  (void)p, (void)u;
  ++hits;
  got[0] = argc > 0 ? (int64_t)a[0].bits : -1;
  got[1] = argc > 1 ? (int64_t)a[1].bits : -1;
}
static void on_sdt(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)p, (void)u;
  ++hits;
  got[0] = (int)a[0];
  got[1] = (long)a[1];
}

static int usdt;
static xsdt_mode mode;
static uintptr_t site_pc; /* the probe's (first) site */

static int enable(xsdt_error *err) {
  return usdt ? xsdt_enable("fo:*", on_usdt, NULL, err)
              : xsdt_sdt_enable("fo:::", mode, on_sdt, NULL, err);
}
static int disable(xsdt_error *err) {
  return usdt ? xsdt_disable("fo:*", err) : xsdt_sdt_disable("fo:::", err);
}
static int at_nop(void) {
  return usdt ? rt_bytes_are(site_pc, rt_nop) : jt_is_nop(site_pc);
}

/* Arms N = 0, 1, ... around one enable until it succeeds. Returns the N of
 * the success; prints the failures' summary. */
static long failing; /* the failing enables of the last sweep */
static long sweep(const char *what) {
  long n, wrong_error = 0, not_nop = 0, fired = 0;
  xsdt_error err;
  ntracked = overflow = 0;
  for (n = 0; n < 100000; ++n) {
    long tracked_before = ntracked;
    seen = 0;
    fail_from = n;
    armed = 1;
    memset(&err, 0, sizeof err);
    int r = enable(&err);
    armed = 0;
    if (r >= 0) {
      ntracked = tracked_before; /* the enabled probe's: not counted */
      break;
    }
    if (!strstr(err.message, "out of memory")) {
      if (!wrong_error)
        printf("  N=%ld: %d %s: %s\n", n, r, xsdt_status_name(err.code),
               err.message);
      ++wrong_error;
    }
    not_nop += !at_nop();
    int before = hits;
    fire(1);
    fired += hits != before;
  }
  printf("%s: %ld failing enables, all 'out of memory': %s, sites at the "
         "NOP: %s, hits: %ld\n",
         what, n, wrong_error ? "NO" : "yes", not_nop ? "NO" : "yes", fired);
  RT_CHECK(n > 0 && wrong_error == 0 && not_nop == 0 && fired == 0);
  failing = n;
  return n;
}

/* The same around one disable of the enabled probe: each failing disable
 * must leave the probe enabled (its site as it was, and it fires), and the
 * disable that succeeds restores the NOP. */
static void sweep_disable(void) {
  long n, wrong_error = 0, changed = 0, silent = 0;
  xsdt_error err;
  RT_EXPECT_RESULT(enable(&err), 1, &err);
  const size_t size = usdt ? RT_SITE_SIZE : RT_JUMP_SITE_SIZE;
  unsigned char enabled[RT_SITE_SIZE > RT_JUMP_SITE_SIZE ? RT_SITE_SIZE
                                                         : RT_JUMP_SITE_SIZE];
  memcpy(enabled, (const void *)site_pc, size);
  for (n = 0; n < 100000; ++n) {
    seen = 0;
    fail_from = n;
    armed = 1;
    memset(&err, 0, sizeof err);
    int r = disable(&err);
    armed = 0;
    if (r >= 0)
      break;
    if (!strstr(err.message, "out of memory")) {
      if (!wrong_error)
        printf("  N=%ld: %d %s: %s\n", n, r, xsdt_status_name(err.code),
               err.message);
      ++wrong_error;
    }
    changed += memcmp((const void *)site_pc, enabled, size) != 0;
    int before = hits;
    fire(1);
    silent += hits == before;
  }
  int before = hits;
  fire(2);
  printf("disable: %ld failing disables, all 'out of memory': %s, site as "
         "enabled: %s, probe still fires: %s; then disabled: %s\n",
         n, wrong_error ? "NO" : "yes", changed ? "NO" : "yes",
         silent ? "NO" : "yes", hits == before && at_nop() ? "yes" : "NO");
  RT_CHECK(n > 0 && wrong_error == 0 && changed == 0 && silent == 0);
  RT_CHECK(hits == before && at_nop());
}

/* Uses the probe enabled by the sweep's last enable, disables it, and
 * prints how many allocations of the failing enables are still live. */
static long use(void) {
  xsdt_error err;
  int before = hits;
  fire(6);
  printf("enabled: hits %d, values %lld %lld\n", hits - before,
         (long long)got[0], (long long)got[1]);
  RT_CHECK(hits - before == 1 && got[0] == 6 && got[1] == 66);
  RT_EXPECT_RESULT(disable(&err), 1, &err);
  before = hits;
  fire(7);
  RT_CHECK(hits == before && at_nop());
  /* An enable and a disable more: whatever a failing enable left for the
   * next call to replace is replaced. */
  RT_EXPECT_RESULT(enable(&err), 1, &err);
  RT_EXPECT_RESULT(disable(&err), 1, &err);
  long kept = ntracked + overflow;
  printf("allocations of the failing enables still live: fewer than one per "
         "failing enable: %s\n",
         kept < failing ? "yes" : "NO");
  fprintf(stderr, "%ld allocations of %ld failing enables still live\n",
          kept, failing);
  return kept;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  usdt = strcmp(what, "usdt") == 0;
  if (!usdt)
    mode = jt_parse_mode(what);
  if (usdt) {
    struct rt_find f = rt_find_probe("fo", "u");
    RT_CHECK(f.count == 1);
    site_pc = f.pc[0];
  } else {
    struct jt_sites l;
    jt_list_sites("fo:", &l);
    RT_CHECK(l.n >= 1);
    site_pc = l.s[0].site;
  }
  printf("out of memory: %s\n", what);
  sweep("first enable");
  use();
  /* Warmed up: whatever the runtime keeps for good exists now. */
  sweep("again");
  RT_CHECK(use() < failing);
  sweep_disable();
  return rt_finish();
}
