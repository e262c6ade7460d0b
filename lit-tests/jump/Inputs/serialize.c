/* Jump mode on the arches that patch a jump by the trap-first protocol
 * (trait jump-trap-first: x86's 5-byte jmp, armhf's 32-bit Thumb b.w): the
 * patcher stores a change that lies within the trap's bytes (x86: byte 0;
 * armhf: the first halfword) with one atomic store; any other change takes
 * the cross-modifying-code protocol: trap over the head, serialize every
 * thread, the tail, serialize, the head, serialize (sdt/runtime/src/
 * patch.h): three all-thread serializations per batch, however many sites.
 * Trap mode writes the trap alone per site and needs none.
 *
 * Where sites need no alignment (x86), the four sites sit behind 0..3 bytes
 * of padding after an 8-byte boundary, so that the layout varies. Which
 * sites need the protocol is computed here: the bytes a jump changes, read
 * from the sites while enabled (their jumps are checked by
 * patch-bytes.test), against the arch's NOP and trap (arch.json). Checked
 * with another thread alive (blocked in read()), through
 * xsdt_get_patch_stats(). */
#include "jump-test.h"

#include <pthread.h>

#ifdef WATCH_MEMBARRIER
/* serialize-membarrier.test: each serialization must be a SYNC_CORE
 * membarrier the kernel carried out, seen from inside through
 * -Wl,--wrap=syscall (a count alone would pass a serialize() that does
 * nothing). */
#include <linux/membarrier.h>
#include <stdarg.h>
#include <sys/syscall.h>

static long sync_cores; /* successful MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE */
long __real_syscall(long number, ...);
long __wrap_syscall(long number, ...);
long __wrap_syscall(long number, ...) {
  va_list ap;
  long a[6];
  va_start(ap, number);
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  long result = __real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (number == __NR_membarrier &&
      a[0] == MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE && result == 0)
    ++sync_cores;
  return result;
}
#endif

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

/* One site per function, so that the compiler cannot add copies. The
 * padding is x86 nops (0x90), for the arches whose sites have no alignment
 * of their own. */
#ifdef TRAIT_SITES_ALIGNED_4
#define PAD(n)
#else
#define PAD(n) __asm__ volatile(".balign 8\n.fill " #n ", 1, 0x90")
#endif
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

/* The bytes of the trap: where expect.site_trap differs from
 * expect.site_nop. */
static size_t trap_bytes(void) {
  size_t n = 0;
  for (size_t i = 0; i < RT_JUMP_SITE_SIZE; ++i)
    if (rt_jump_trap[i] != rt_jump_nop[i])
      n = i + 1;
  return n;
}

/* Whether the site's NOP -> jump change (its bytes now, while enabled in
 * jump mode) reaches past the trap's bytes. */
static int needs_protocol(const struct jt_site *s) {
  unsigned char nop[RT_JUMP_SITE_SIZE];
  const unsigned char *now = (const unsigned char *)s->site;
  jt_nop_bytes(s->site, s->target, nop);
  size_t hi = RT_JUMP_SITE_SIZE;
  while (hi > 0 && now[hi - 1] == nop[hi - 1])
    --hi;
  return hi > trap_bytes();
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
#ifdef WATCH_MEMBARRIER
  const long cores_before = sync_cores;
#endif
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
#ifdef WATCH_MEMBARRIER
  printf("%s: membarrier sync-core calls: %ld (want %ld)\n", jt_mode_name(mode),
         sync_cores - cores_before, enable + disable);
  RT_CHECK(sync_cores - cores_before == enable + disable);
#endif
}

static struct jt_sites sites;

int main(void) {
  jt_list_sites("jz:", &sites);
  RT_CHECK(sites.n == NPROBES);
  int protocol = 0;
  JT_EXPECT(xsdt_sdt_enable("jz:::", XSDT_MODE_JUMP, on_hit, NULL, &jt_err),
            NPROBES);
  for (int i = 0; i < sites.n; ++i)
    protocol += needs_protocol(&sites.s[i]);
  JT_EXPECT(xsdt_sdt_disable("jz:::", &jt_err), NPROBES);
  printf("%d sites, %d need the trap-first protocol\n", sites.n, protocol);

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
