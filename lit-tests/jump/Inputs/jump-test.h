/* Shared helpers of the SDT(9) jump-site tests (lit-tests/jump). The site
 * and trap bytes, the poke helper and the check macros come from the
 * runtime tests' rt-test.h: the arch's facts (arch.json, %expect-cflags),
 * written independently of the runtime. */
#ifndef XSDT_JUMP_TEST_H
#define XSDT_JUMP_TEST_H

#include "../../runtime/Inputs/rt-test.h"

#include <xsdt/sdt-runtime.h>
#include <xsdt/sdt.h>

#include <link.h>

/* A function of its own that the compiler neither inlines nor clones
 * (gcc's IPA-CP would otherwise add a specialized copy, with a second copy
 * of the site, next to an external original). */
#if defined(__clang__)
#define JT_NOIPA __attribute__((noinline))
#else
#define JT_NOIPA __attribute__((noipa))
#endif

/* ---- Sites, from the runtime's listing ---------------------------------- */

#define JT_MAX_SITES 64

struct jt_site {
  char id[128];      /* the probe's id */
  uintptr_t site;    /* run-time address of the NOP */
  uintptr_t target;  /* run-time address of the out-of-line block */
  xsdt_mode state;   /* XSDT_MODE_JUMP, _TRAP or 0 */
  char function[64]; /* the symbol holding the site ("" if none) */
  int index;         /* 0.. among the sites of its probe, by address */
};

struct jt_sites {
  const char *prefix; /* only probes whose id starts with it */
  int n;
  struct jt_site s[JT_MAX_SITES];
};

static inline void jt_site_visit(const xsdt_sdt_site_info *si, void *user) {
  struct jt_sites *l = (struct jt_sites *)user;
  if (strncmp(si->probe->id, l->prefix, strlen(l->prefix)) != 0)
    return;
  if (l->n >= JT_MAX_SITES) {
    printf("FAIL more than %d sites\n", JT_MAX_SITES);
    ++rt_failures;
    return;
  }
  struct jt_site *s = &l->s[l->n++];
  snprintf(s->id, sizeof s->id, "%s", si->probe->id);
  s->site = si->site;
  s->target = si->target;
  s->state = si->state;
  snprintf(s->function, sizeof s->function, "%s",
           si->function ? si->function : "");
}

static inline int jt_site_order(const void *a, const void *b) {
  const struct jt_site *x = (const struct jt_site *)a,
                       *y = (const struct jt_site *)b;
  int c = strcmp(x->id, y->id);
  if (c)
    return c;
  return x->site < y->site ? -1 : x->site > y->site;
}

/* The sites of the probes whose id starts with prefix, sorted by id and
 * address (a deterministic order for FileCheck), into *l. */
static inline void jt_list_sites(const char *prefix, struct jt_sites *l) {
  xsdt_error err;
  memset(l, 0, sizeof *l);
  l->prefix = prefix;
  if (xsdt_sdt_list_sites(jt_site_visit, l, &err) < 0) {
    printf("FAIL xsdt_sdt_list_sites: %s: %s\n", xsdt_status_name(err.code),
           err.message);
    ++rt_failures;
  }
  qsort(l->s, (size_t)l->n, sizeof l->s[0], jt_site_order);
  for (int i = 0; i < l->n; ++i)
    l->s[i].index = i > 0 && strcmp(l->s[i].id, l->s[i - 1].id) == 0
                        ? l->s[i - 1].index + 1
                        : 0;
}

/* The sites of one probe (exact id). */
static inline int jt_sites_of(const struct jt_sites *l, const char *id,
                              uintptr_t *out, int max) {
  int n = 0;
  for (int i = 0; i < l->n; ++i)
    if (strcmp(l->s[i].id, id) == 0) {
      if (n < max)
        out[n] = l->s[i].site;
      ++n;
    }
  return n;
}

static inline void jt_invalid_visit(const char *message, void *user) {
  (void)user;
  printf("invalid record: %s\n", message);
}

/* The number of records that failed validation (printed), or -1. */
static inline int jt_count_invalid(void) {
  xsdt_error err;
  int n = xsdt_sdt_list_invalid(jt_invalid_visit, NULL, &err);
  if (n < 0)
    printf("xsdt_sdt_list_invalid: %s: %s\n", xsdt_status_name(err.code),
           err.message);
  return n;
}

/* ---- Bytes --------------------------------------------------------------- */

/* The bytes a disabled jump site holds: the site NOP, or, on an arch whose
 * NOP names the jump's target (s390x's brcl 0,target: arch.json
 * expect.jump_nop), its head and then the offset from the site to target. */
static inline void jt_nop_bytes(uintptr_t site, uintptr_t target,
                                unsigned char *out) {
  memcpy(out, rt_jump_nop, RT_JUMP_SITE_SIZE);
#ifdef EXPECT_JUMP_NOP_HEAD
  static const unsigned char head[] = {EXPECT_JUMP_NOP_HEAD};
  const int n = EXPECT_JUMP_NOP_OFFSET_BYTES;
  uint64_t units =
      (uint64_t)((int64_t)(target - site) / EXPECT_JUMP_NOP_OFFSET_UNIT);
  memcpy(out, head, sizeof head);
  for (int i = 0; i < n; ++i) {
    int significance = EXPECT_JUMP_NOP_OFFSET_BIG_ENDIAN ? n - 1 - i : i;
    out[sizeof head + (size_t)i] = (unsigned char)(units >> (8 * significance));
  }
#else
  (void)site, (void)target;
#endif
}

/* The same with the trap over it: the bytes where expect.jump_trap differs
 * from expect.jump_site are the trap's. */
static inline void jt_trap_bytes(uintptr_t site, uintptr_t target,
                                 unsigned char *out) {
  jt_nop_bytes(site, target, out);
  for (size_t i = 0; i < RT_JUMP_SITE_SIZE; ++i)
    if (rt_jump_trap[i] != rt_jump_nop[i])
      out[i] = rt_jump_trap[i];
}

static inline void jt_target_visit(const xsdt_sdt_site_info *si, void *user) {
  uintptr_t *site_and_target = (uintptr_t *)user;
  if (si->site == site_and_target[0])
    site_and_target[1] = si->target;
}

/* The target of the jump site at `site`, from the runtime's listing of the
 * records (0 if none). */
static inline uintptr_t jt_target_of(uintptr_t site) {
  uintptr_t site_and_target[2] = {site, 0};
  xsdt_error err;
  if (xsdt_sdt_list_sites(jt_target_visit, site_and_target, &err) < 0)
    printf("FAIL xsdt_sdt_list_sites: %s\n", err.message);
  return site_and_target[1];
}

/* Whether the jump site at `site` holds its disabled NOP, or the trap. */
static inline int jt_is_nop(uintptr_t site) {
  unsigned char want[RT_JUMP_SITE_SIZE];
  jt_nop_bytes(site, jt_target_of(site), want);
  return rt_jump_bytes_are(site, want);
}
static inline int jt_is_trap(uintptr_t site) {
  unsigned char want[RT_JUMP_SITE_SIZE];
  jt_trap_bytes(site, jt_target_of(site), want);
  return rt_jump_bytes_are(site, want);
}

/* Puts the disabled NOP back at `site`, as a foreign patcher would. */
static inline void jt_poke_nop(uintptr_t site) {
  unsigned char nop[RT_JUMP_SITE_SIZE];
  jt_nop_bytes(site, jt_target_of(site), nop);
  rt_jump_poke(site, nop);
}

/* "0f 1f 44 00 00": the site's bytes from live memory. */
static inline const char *jt_hex(char *buf, size_t size, uintptr_t pc) {
  const unsigned char *p = (const unsigned char *)pc;
  size_t used = 0;
  buf[0] = 0;
  for (size_t i = 0; i < RT_JUMP_SITE_SIZE && used + 4 <= size; ++i)
    used += (size_t)snprintf(buf + used, size - used, i ? " %02x" : "%02x",
                             p[i]);
  return buf;
}

/* ---- Results of API calls ------------------------------------------------ */

/* The error of the last JT_EXPECT'd call. */
RT_UNUSED static xsdt_error jt_err;

/* Checks an SDT API call's result and prints the error on surprise. */
#define JT_EXPECT(call, want)                                                  \
  do {                                                                         \
    xsdt_error *jt_err_ = &jt_err;                                             \
    memset(jt_err_, 0, sizeof *jt_err_);                                       \
    int jt_got_ = (call);                                                      \
    if (jt_got_ != (want)) {                                                   \
      printf("FAIL %s:%d: %s = %d, want %d (%s: %s)\n", __FILE__, __LINE__,    \
             #call, jt_got_, (int)(want), xsdt_status_name(jt_err_->code),     \
             jt_err_->message);                                                \
      ++rt_failures;                                                           \
    }                                                                          \
  } while (0)


/* ---- Pages --------------------------------------------------------------- */

/* The number of runs of consecutive pages covered by the sites' bytes
 * [site, site + size): what one mprotect call each (made writable, then
 * restored: two calls) costs when the runtime batches by page run. */
static inline int jt_page_runs(const uintptr_t *sites, int n) {
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t pages[2 * JT_MAX_SITES];
  int np = 0;
  for (int i = 0; i < n; ++i) {
    uintptr_t first = sites[i] / page, last = (sites[i] + RT_JUMP_SITE_SIZE - 1) / page;
    for (uintptr_t p = first; p <= last; ++p) {
      int seen = 0;
      for (int j = 0; j < np; ++j)
        seen |= pages[j] == p;
      if (!seen && np < 2 * JT_MAX_SITES)
        pages[np++] = p;
    }
  }
  /* A run starts at every page whose predecessor is not in the set. */
  int runs = 0;
  for (int i = 0; i < np; ++i) {
    int has_prev = 0;
    for (int j = 0; j < np; ++j)
      has_prev |= pages[j] + 1 == pages[i];
    runs += !has_prev;
  }
  return runs;
}

/* ---- The load bias of the test program ---------------------------------- */

struct jt_bias_search {
  uintptr_t address; /* an address inside the test program */
  uintptr_t bias;
  int found;
};

/* The object whose loaded segments hold the address: the main program, or
 * the DSO the launcher loaded in the shared-library cells. */
static inline int jt_bias_visit(struct dl_phdr_info *info, size_t size,
                                void *user) {
  struct jt_bias_search *search = (struct jt_bias_search *)user;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && search->address >= start &&
        search->address < start + ph->p_memsz) {
      search->bias = (uintptr_t)info->dlpi_addr;
      search->found = 1;
      return 1;
    }
  }
  return 0;
}

/* run-time address - link-time address for the test program. */
static inline uintptr_t jt_load_bias(void) {
  static const char marker = 0;
  struct jt_bias_search search = {(uintptr_t)&marker, 0, 0};
  dl_iterate_phdr(jt_bias_visit, &search);
  return search.bias;
}

static inline const char *jt_mode_name(xsdt_mode m) {
  return m == XSDT_MODE_JUMP ? "jump" : m == XSDT_MODE_TRAP ? "trap" : "auto";
}

/* argv's "jump" / "trap". */
static inline xsdt_mode jt_parse_mode(const char *s) {
  if (s && strcmp(s, "jump") == 0)
    return XSDT_MODE_JUMP;
  if (s && strcmp(s, "trap") == 0)
    return XSDT_MODE_TRAP;
  printf("usage: mode must be jump or trap, not '%s'\n", s ? s : "(none)");
  exit(2);
}

#endif
