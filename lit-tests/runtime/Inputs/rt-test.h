/* Shared helpers of the runtime tests. The expected site and trap bytes are
 * the arch's, from its data file arches/<arch>/arch.json ("expect"), which
 * the tests keep independently of the runtime's own tables so that they
 * check it rather than echo it: lit passes them as %expect-cflags
 * (-DEXPECT_SITE_NOP=0x..,0x.. and so on). */
#ifndef XSDT_RT_TEST_H
#define XSDT_RT_TEST_H

#define _GNU_SOURCE 1
#include <xsdt/runtime.h>
#include <xsdt/usdt.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RT_UNUSED __attribute__((unused))

#if !defined(EXPECT_SITE_NOP) || !defined(EXPECT_SITE_TRAP) ||               \
    !defined(EXPECT_SITE_FOREIGN) || !defined(EXPECT_JUMP_SITE) ||             \
    !defined(EXPECT_JUMP_TRAP) || !defined(EXPECT_JUMP_FOREIGN)
#error "compile with %expect-cflags: the arch's expected bytes (arch.json)"
#endif
/* A USDT site: the patch-width NOP its note points at. */
RT_UNUSED static const unsigned char rt_nop[] = {EXPECT_SITE_NOP};
/* What trap mode writes over it (on x86 int3 over byte 0: the rest of the
 * NOP stays). */
RT_UNUSED static const unsigned char rt_trap[] = {EXPECT_SITE_TRAP};
/* Bytes of the site's width that are harmless to execute but no site
 * encoding the runtime accepts. */
RT_UNUSED static const unsigned char rt_foreign[] = {EXPECT_SITE_FOREIGN};
#define RT_SITE_SIZE sizeof rt_nop
/* The same three of an SDT(9) jump site, which on most arches is the USDT
 * site (x86-64: the 10-byte NOP behind the USDT site's 1-byte nop). */
RT_UNUSED static const unsigned char rt_jump_nop[] = {EXPECT_JUMP_SITE};
RT_UNUSED static const unsigned char rt_jump_trap[] = {EXPECT_JUMP_TRAP};
RT_UNUSED static const unsigned char rt_jump_foreign[] = {EXPECT_JUMP_FOREIGN};
#define RT_JUMP_SITE_SIZE sizeof rt_jump_nop

static int rt_failures;

#define RT_CHECK(cond)                                                         \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
      ++rt_failures;                                                           \
    }                                                                          \
  } while (0)

/* Checks an API call's result and prints the error on surprise. */
#define RT_EXPECT_RESULT(call, want, err)                                      \
  do {                                                                         \
    int rt_got_ = (call);                                                      \
    if (rt_got_ != (want)) {                                                   \
      printf("FAIL %s:%d: %s = %d, want %d (%s: %s)\n", __FILE__, __LINE__,    \
             #call, rt_got_, (int)(want), xsdt_status_name((err)->code),       \
             (err)->message);                                                  \
      ++rt_failures;                                                           \
    }                                                                          \
  } while (0)

static inline int rt_finish(void) {
  printf("%s (%d failures)\n", rt_failures ? "FAILED" : "PASSED", rt_failures);
  return rt_failures ? 1 : 0;
}

/* The run-time address of a probe's site, from the runtime's listing. */
struct rt_find {
  const char *provider, *name;
  uintptr_t pc[4];
  int count;
  uintptr_t semaphore;
  int argc;
};

static inline void rt_find_visit(const xsdt_probe_info *p, void *user) {
  struct rt_find *f = (struct rt_find *)user;
  if (strcmp(p->provider, f->provider) == 0 && strcmp(p->name, f->name) == 0) {
    if (f->count < 4)
      f->pc[f->count] = p->pc;
    ++f->count;
    f->semaphore = p->semaphore;
    f->argc = p->argc;
  }
}

static inline struct rt_find rt_find_probe(const char *provider,
                                           const char *name) {
  struct rt_find f;
  xsdt_error err;
  memset(&f, 0, sizeof f);
  f.provider = provider;
  f.name = name;
  if (xsdt_list(rt_find_visit, &f, &err) < 0)
    printf("FAIL xsdt_list: %s\n", err.message);
  return f;
}

static inline int rt_bytes_are_n(uintptr_t pc, const unsigned char *want,
                                 size_t size) {
  return memcmp((const void *)pc, want, size) == 0;
}
/* Whether the USDT site at pc holds want (RT_SITE_SIZE bytes); the jump
 * site at pc (RT_JUMP_SITE_SIZE bytes). */
static inline int rt_bytes_are(uintptr_t pc, const unsigned char *want) {
  return rt_bytes_are_n(pc, want, RT_SITE_SIZE);
}
static inline int rt_jump_bytes_are(uintptr_t pc, const unsigned char *want) {
  return rt_bytes_are_n(pc, want, RT_JUMP_SITE_SIZE);
}

static inline void rt_print_bytes(const char *what, uintptr_t pc) {
  const unsigned char *p = (const unsigned char *)pc;
  printf("%s:", what);
  for (size_t i = 0; i < RT_SITE_SIZE; ++i)
    printf(" %02x", p[i]);
  printf("\n");
}

/* Overwrites size bytes at pc with the test's own through the executable
 * mapping, as a foreign patcher would. */
static inline void rt_poke_n(uintptr_t pc, const unsigned char *bytes,
                             size_t size) {
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = pc & ~(uintptr_t)(page - 1);
  uintptr_t end = (pc + size + page - 1) & ~(uintptr_t)(page - 1);
  if (mprotect((void *)start, end - start, PROT_READ | PROT_WRITE | PROT_EXEC))
    perror("mprotect");
  memcpy((void *)pc, bytes, size);
  if (mprotect((void *)start, end - start, PROT_READ | PROT_EXEC))
    perror("mprotect");
  __builtin___clear_cache((char *)pc, (char *)pc + size);
}
/* The same over a USDT site, and over a jump site. */
static inline void rt_poke(uintptr_t pc, const unsigned char *bytes) {
  rt_poke_n(pc, bytes, RT_SITE_SIZE);
}
static inline void rt_jump_poke(uintptr_t pc, const unsigned char *bytes) {
  rt_poke_n(pc, bytes, RT_JUMP_SITE_SIZE);
}

#endif
