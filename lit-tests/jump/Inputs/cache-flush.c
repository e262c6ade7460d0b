/* Evidence that freshly written code is made visible to instruction fetch.
 *
 * Every arch: the patcher's counters (xsdt_get_patch_stats) over one jump-
 * mode enable and one disable of 5 probes (5 or more sites). Where the
 * instruction cache is not coherent with stores (TRAIT_INCOHERENT_ICACHE:
 * aarch64, riscv64), at least one icache flush per run of patched pages;
 * where it is (TRAIT_COHERENT_ICACHE: x86) the counts are printed, and the
 * serializations of the int3-first protocol (TRAIT_JUMP_TRAP_FIRST), which
 * serialize.test checks.
 *
 * TRAIT_ICACHE_FLUSH_SYSCALL (riscv64): fence.i only affects the calling
 * hart, so the runtime must call the kernel's icache flush syscall
 * (EXPECT_ICACHE_FLUSH_SYSCALL: riscv_flush_icache, 259) with flags 0 (every
 * thread). QEMU 7.2 handles that syscall in its cpu loop before -strace sees
 * it, so the program watches the runtime's syscall(3) calls itself: the test
 * links with -Wl,--wrap=syscall, and __wrap_syscall records every call with
 * that number, its range and flags and a snapshot of the watched sites taken
 * at the moment of the call, then passes it on (__real_syscall). Each
 * patched site must be covered by such a call made after its new bytes
 * were in place (the flush follows the write), in both directions.
 *
 * TRAIT_ICACHE_FLUSH_LIBGCC (aarch64): the runtime flushes through libgcc's
 * __clear_cache (dc cvau / ic ivau), which no emulator needs: QEMU user mode
 * keeps its translations coherent, so a missing flush changes no behaviour
 * there. The test links with -Wl,--wrap=__clear_cache and holds those calls
 * to the same rule as the syscall's: each patched site covered by a call
 * made after its new bytes were in place.
 *
 * With the syscall, the runtime calls nothing else: no __clear_cache (a
 * second flush of every site). "syscall-fails": the wrapper fails the flush
 * syscall (ENOSYS, as a kernel or emulator without it), and the runtime must
 * fall back to the compiler's builtin, whose library call (libgcc's
 * __clear_cache, or glibc's __riscv_flush_icache where gcc calls that) the
 * program wraps too and holds to the same rule: every patched site covered.
 *
 * The program writes "xsdt-mark: ..." lines to stderr around enable and
 * disable, for cache-flush-strace.test to place QEMU's -strace output.
 * Usage: cache-flush [syscall-fails] */
#include "jump-test.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

SDT_PROVIDER_DEFINE(jf);
SDT_PROBE_DEFINE1(jf, c, f, a, "int");
SDT_PROBE_DEFINE1(jf, c, f, b, "int");
SDT_PROBE_DEFINE1(jf, c, f, c, "int");
SDT_PROBE_DEFINE1(jf, c, f, d, "int");
SDT_PROBE_DEFINE0(jf, c, f, e);

static int hits;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)a, (void)user;
  ++hits;
}

JT_NOIPA void fire_abcd(int x) {
  SDT_PROBE1(jf, c, f, a, x);
  SDT_PROBE1(jf, c, f, b, x);
  SDT_PROBE1(jf, c, f, c, x);
  SDT_PROBE1(jf, c, f, d, x);
}
JT_NOIPA void fire_e(void) { SDT_PROBE0(jf, c, f, e); }

#define NPROBES 5 /* gcc may add copies of a site: at least 5 sites */
static struct jt_sites sites;

static void mark(const char *what) {
  char line[64];
  int n = snprintf(line, sizeof line, "xsdt-mark: %s\n", what);
  if (write(2, line, (size_t)n) != n)
    perror("write");
}

/* ---- The runtime's flush calls, seen from inside ------------------------- */
long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);

/* How the arch's flush syscall names its range and asks for every thread
 * (arch.json expect.icache_flush_syscall_range and _flags): (start, end, 0)
 * unless the arch says otherwise (start, length, and its own flags). */
#ifndef EXPECT_ICACHE_FLUSH_SYSCALL_FLAGS
#define EXPECT_ICACHE_FLUSH_SYSCALL_FLAGS 0
#endif
#ifdef EXPECT_ICACHE_FLUSH_SYSCALL_BY_LENGTH
#define FLUSH_SYSCALL_END(a) ((a)[0] + (a)[1])
#else
#define FLUSH_SYSCALL_END(a) ((a)[1])
#endif

#if defined(TRAIT_ICACHE_FLUSH_SYSCALL) || defined(TRAIT_ICACHE_FLUSH_LIBGCC)
#define WATCH_FLUSHES
#define MAX_FLUSHES 64
struct flush_call {
  uintptr_t start, end;
  int every_thread; /* the call's flags ask for every thread's icache */
  unsigned char bytes[JT_MAX_SITES][RT_JUMP_SITE_SIZE]; /* the sites at the call */
};
static struct flush_call flushes[MAX_FLUSHES];
static int nflushes, watching;

static void record_flush(uintptr_t start, uintptr_t end, int every_thread) {
  if (!watching || nflushes >= MAX_FLUSHES)
    return;
  struct flush_call *f = &flushes[nflushes++];
  f->start = start;
  f->end = end;
  f->every_thread = every_thread;
  for (int i = 0; i < sites.n; ++i)
    memcpy(f->bytes[i], (const void *)sites.s[i].site, RT_JUMP_SITE_SIZE);
}
#endif

static int flush_syscall_fails; /* "syscall-fails" */

static void library_flush(void *begin, void *end, unsigned long flags);
#ifdef WATCH_FLUSHES
static int library_flushes; /* calls of the builtin's library call */

/* Whether the builtin's library calls are the flushes that must cover the
 * sites: where the runtime flushes through it, or falls back to it. */
static int library_call_flushes(void) {
#ifdef TRAIT_ICACHE_FLUSH_LIBGCC
  return 1;
#else
  return flush_syscall_fails;
#endif
}

static void library_flush(void *begin, void *end, unsigned long flags) {
  if (watching)
    ++library_flushes;
  if (library_call_flushes())
    record_flush((uintptr_t)begin, (uintptr_t)end, flags == 0);
}
#else
static void library_flush(void *begin, void *end, unsigned long flags) {
  (void)begin, (void)end, (void)flags;
}
#endif

/* Every arch: a runtime that falls back to __clear_cache (armhf, riscv64)
 * or uses nothing else (aarch64) links against this wrapper. */
void __real___clear_cache(char *begin, char *end);
void __wrap___clear_cache(char *begin, char *end);
void __wrap___clear_cache(char *begin, char *end) {
  library_flush(begin, end, 0);
  __real___clear_cache(begin, end);
}

/* gcc's builtin calls glibc's _flush_cache(addr, nbytes, cache) where glibc
 * has it (cache 3, BCACHE: both caches, every thread); elsewhere nothing
 * calls it. */
int __real__flush_cache(char *addr, int nbytes, int cache)
    __attribute__((weak));
int __wrap__flush_cache(char *addr, int nbytes, int cache);
int __wrap__flush_cache(char *addr, int nbytes, int cache) {
  library_flush(addr, addr + nbytes, cache == 3 ? 0 : (unsigned long)cache);
  return __real__flush_cache ? __real__flush_cache(addr, nbytes, cache) : 0;
}

/* gcc's builtin calls glibc's __riscv_flush_icache instead where glibc has
 * it; elsewhere nothing calls it, and the weak reference stays null. */
int __real___riscv_flush_icache(void *begin, void *end, unsigned long flags)
    __attribute__((weak));
int __wrap___riscv_flush_icache(void *begin, void *end, unsigned long flags);
int __wrap___riscv_flush_icache(void *begin, void *end, unsigned long flags) {
  library_flush(begin, end, flags);
  return __real___riscv_flush_icache
             ? __real___riscv_flush_icache(begin, end, flags)
             : 0;
}

long __wrap_syscall(long number, ...) {
  va_list ap;
  long a[6];
  va_start(ap, number);
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
#ifdef TRAIT_ICACHE_FLUSH_SYSCALL
  if (number == EXPECT_ICACHE_FLUSH_SYSCALL && flush_syscall_fails) {
    errno = ENOSYS;
    return -1;
  }
  if (number == EXPECT_ICACHE_FLUSH_SYSCALL)
    record_flush((uintptr_t)a[0], (uintptr_t)FLUSH_SYSCALL_END(a),
                 a[2] == EXPECT_ICACHE_FLUSH_SYSCALL_FLAGS);
#endif
  return __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#ifdef WATCH_FLUSHES
/* Each site is covered by a flush of every thread made once its bytes were
 * the ones it holds now. Returns the number of sites without one. */
static int unflushed_sites(const char *what) {
  int missing = 0;
  for (int i = 0; i < sites.n; ++i) {
    uintptr_t pc = sites.s[i].site;
    int ok = 0;
    for (int k = 0; k < nflushes && !ok; ++k)
      ok = flushes[k].start <= pc && pc + RT_JUMP_SITE_SIZE <= flushes[k].end &&
           flushes[k].every_thread &&
           memcmp(flushes[k].bytes[i], (const void *)pc, RT_JUMP_SITE_SIZE) == 0;
    if (!ok) {
      printf("FAIL %s: no icache flush (all threads) after the write "
             "of %s at %#lx\n",
             what, sites.s[i].id, (unsigned long)pc);
      ++missing;
    }
  }
  return missing;
}
#endif

int main(int argc, char **argv) {
  flush_syscall_fails = argc > 1 && strcmp(argv[1], "syscall-fails") == 0;
  jt_list_sites("jf:", &sites);
  RT_CHECK(sites.n >= NPROBES);
  if (sites.n < NPROBES)
    return rt_finish();
  uintptr_t pcs[JT_MAX_SITES];
  for (int i = 0; i < sites.n; ++i)
    pcs[i] = sites.s[i].site;
  int runs = jt_page_runs(pcs, sites.n);

  xsdt_patch_stats s0, s1, s2;
#ifdef WATCH_FLUSHES
  watching = 1;
#endif
  xsdt_get_patch_stats(&s0);
  /* The counters count from the start of the process: nothing is written
   * yet (listing the sites patches nothing). */
  printf("before the first write: %llu sites, %llu mprotect calls, %llu "
         "flushes, %llu serializations\n",
         (unsigned long long)s0.sites_written,
         (unsigned long long)s0.mprotect_calls,
         (unsigned long long)s0.icache_flushes,
         (unsigned long long)s0.serializations);
  mark("enable-begin");
  JT_EXPECT(xsdt_sdt_enable("jf:::", XSDT_MODE_JUMP, on_hit, NULL, &jt_err),
            NPROBES);
  mark("enable-end");
  xsdt_get_patch_stats(&s1);
#ifdef WATCH_FLUSHES
  int enable_flushes = nflushes;
  int enable_missing = unflushed_sites("enable");
  nflushes = 0;
#endif
  fire_abcd(1);
  fire_e();
  RT_CHECK(hits == NPROBES);
  mark("disable-begin");
  JT_EXPECT(xsdt_sdt_disable("jf:::", &jt_err), NPROBES);
  mark("disable-end");
  xsdt_get_patch_stats(&s2);
#ifdef WATCH_FLUSHES
  watching = 0;
  int disable_flushes = nflushes;
  int disable_missing = unflushed_sites("disable");
#endif
  for (int i = 0; i < sites.n; ++i)
    RT_CHECK(jt_is_nop(sites.s[i].site));

  long flush_enable = (long)(s1.icache_flushes - s0.icache_flushes);
  long flush_disable = (long)(s2.icache_flushes - s1.icache_flushes);
  printf("%d probes, %d sites on %d page run%s\n", NPROBES, sites.n, runs,
         runs == 1 ? "" : "s");
#ifdef TRAIT_COHERENT_ICACHE
  /* Instruction fetch is coherent with stores: nothing to flush. */
  printf("icache flushes: enable %ld, disable %ld (coherent icache)\n",
         flush_enable, flush_disable);
#else
  printf("icache flushes >= page runs: enable %s, disable %s\n",
         flush_enable >= runs ? "yes" : "no",
         flush_disable >= runs ? "yes" : "no");
  RT_CHECK(flush_enable >= runs && flush_disable >= runs);
#endif
#ifdef TRAIT_JUMP_TRAP_FIRST
  /* serialize.test checks the int3-first protocol's serializations. */
  printf("serializations: enable %ld, disable %ld\n",
         (long)(s1.serializations - s0.serializations),
         (long)(s2.serializations - s1.serializations));
#endif
#ifdef WATCH_FLUSHES
#ifdef TRAIT_ICACHE_FLUSH_SYSCALL
  const char *flush_kind = flush_syscall_fails ? "fallback (syscall failing)" : "syscall";
  if (!flush_syscall_fails) {
    /* The syscall flushed every site: a library call would flush again. */
    printf("library flush calls: %d\n", library_flushes);
    RT_CHECK(library_flushes == 0);
  }
#else
  const char *flush_kind = "__clear_cache";
#endif
  printf("icache flush %s: enable %d calls, %d sites unflushed; disable "
         "%d calls, %d sites unflushed\n",
         flush_kind, enable_flushes, enable_missing, disable_flushes,
         disable_missing);
  RT_CHECK(enable_flushes > 0 && disable_flushes > 0);
  RT_CHECK(enable_missing == 0 && disable_missing == 0);
#endif
  return rt_finish();
}
