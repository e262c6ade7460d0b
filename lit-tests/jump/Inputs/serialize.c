/* x86 jump mode: the patcher stores a change that fits one naturally
 * aligned 1-, 2- or 4-byte word with one atomic store; any other change of
 * a 5-byte site (the NOP <-> `e9 rel32` swap, unless the rel32's high
 * bytes happen to stay 00 and the site's alignment allows it) takes the
 * cross-modifying-code protocol: int3 over the head, serialize every
 * thread, the tail, serialize, the head, serialize (sdt/runtime/src/
 * patch.h): three all-thread serializations per batch, however many sites.
 * Trap mode writes one byte (int3) per site and needs none.
 *
 * The four sites sit behind 0..3 bytes of padding after an 8-byte
 * boundary, so that, whatever the compiler's layout, at least one of them
 * needs the protocol. The expectation is computed here from the listed
 * addresses and the jump encoding; checked with another thread alive
 * (blocked in read()), through xsdt_get_patch_stats(). */
#include "jump-test.h"

#include <pthread.h>

SDT_PROVIDER_DEFINE(jz);
SDT_PROBE_DEFINE0(jz, z, f, a);
SDT_PROBE_DEFINE0(jz, z, f, b);
SDT_PROBE_DEFINE0(jz, z, f, c);
SDT_PROBE_DEFINE0(jz, z, f, d);

#define NPROBES 4

static int hits;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)a, (void)user;
  ++hits;
}

/* One site per function, so that the compiler cannot add copies. */
#define PAD(n) __asm__ volatile(".balign 8\n.fill " #n ", 1, 0x90")
JT_NOIPA void fire_a(void) {
  PAD(0);
  SDT_PROBE0(jz, z, f, a);
}
JT_NOIPA void fire_b(void) {
  PAD(1);
  SDT_PROBE0(jz, z, f, b);
}
JT_NOIPA void fire_c(void) {
  PAD(2);
  SDT_PROBE0(jz, z, f, c);
}
JT_NOIPA void fire_d(void) {
  PAD(3);
  SDT_PROBE0(jz, z, f, d);
}
static void fire(void) {
  fire_a();
  fire_b();
  fire_c();
  fire_d();
}

/* Whether NOP -> jump at this site is more than one aligned word store. */
static int needs_protocol(uintptr_t site, uintptr_t target) {
  unsigned char jump[5];
  uint32_t rel = (uint32_t)(target - (site + 5));
  jump[0] = 0xe9;
  for (int i = 0; i < 4; ++i)
    jump[1 + i] = (unsigned char)(rel >> (8 * i));
  int lo = 0, hi = 5;
  while (lo < hi && jump[lo] == rt_nop[lo])
    ++lo;
  while (hi > lo && jump[hi - 1] == rt_nop[hi - 1])
    --hi;
  uintptr_t begin = site + (uintptr_t)lo, end = site + (uintptr_t)hi;
  for (uintptr_t size = 1; size <= 4; size *= 2)
    if (begin / size == (end - 1) / size)
      return 0;
  return 1;
}

static int pipe_fds[2];
static void *blocked(void *arg) {
  (void)arg;
  char c;
  if (read(pipe_fds[0], &c, 1) != 1)
    perror("read");
  return NULL;
}

static void cycle(xsdt_mode mode, long want) {
  xsdt_patch_stats s0, s1, s2;
  xsdt_get_patch_stats(&s0);
  JT_EXPECT(xsdt_sdt_enable("jz:::", mode, on_hit, NULL, &jt_err), NPROBES);
  xsdt_get_patch_stats(&s1);
  fire();
  JT_EXPECT(xsdt_sdt_disable("jz:::", &jt_err), NPROBES);
  xsdt_get_patch_stats(&s2);
  long enable = (long)(s1.serializations - s0.serializations);
  long disable = (long)(s2.serializations - s1.serializations);
  printf("%s: serializations: enable %ld, disable %ld (want %ld); site "
         "writes: enable %ld, disable %ld\n",
         jt_mode_name(mode), enable, disable, want,
         (long)(s1.sites_written - s0.sites_written),
         (long)(s2.sites_written - s1.sites_written));
  RT_CHECK(enable == want && disable == want);
}

static struct jt_sites sites;

int main(void) {
  jt_list_sites("jz:", &sites);
  RT_CHECK(sites.n == NPROBES);
  int protocol = 0;
  for (int i = 0; i < sites.n; ++i)
    protocol += needs_protocol(sites.s[i].site, sites.s[i].target);
  printf("%d sites, %d need the int3-first protocol\n", sites.n, protocol);

  RT_CHECK(pipe(pipe_fds) == 0);
  pthread_t thread;
  RT_CHECK(pthread_create(&thread, NULL, blocked, NULL) == 0);
  cycle(XSDT_MODE_JUMP, protocol ? 3 : 0);
  cycle(XSDT_MODE_TRAP, 0);
  RT_CHECK(write(pipe_fds[1], "x", 1) == 1);
  pthread_join(thread, NULL);
  printf("hits %d\n", hits);
  RT_CHECK(hits == 2 * NPROBES);
  return rt_finish();
}
