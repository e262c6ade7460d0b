/* A library whose second site holds foreign bytes by the time libxsdt's
 * load hook runs: a constructor of higher priority than the hook's writes
 * them, finding the site through the library's own site records (the
 * xsdt_sdt_sites layout of <xsdt/sdt.h>), without calling libxsdt. */
#include "../../runtime/Inputs/rt-test.h"

#include <xsdt/sdt.h>

SDT_PROVIDER_DEFINE(late);
SDT_PROBE_DEFINE1(late, libf, f, first, "int");
SDT_PROBE_DEFINE1(late, libf, f, second, "int");

__attribute__((noinline)) int late_fire(int x) {
  SDT_PROBE1(late, libf, f, first, x);
  SDT_PROBE1(late, libf, f, second, x + 1);
  return x;
}

extern __attribute__((visibility("hidden"))) const char
    __start_xsdt_sdt_sites[],
    __stop_xsdt_sdt_sites[];

static uintptr_t self_relative(const char *field) {
  int32_t offset;
  memcpy(&offset, field, sizeof offset);
  return (uintptr_t)field + (uintptr_t)(intptr_t)offset;
}

/* The records damaged: one per copy of the second site. gcc may duplicate
 * an asm goto when it copies blocks (aarch64 gcc 12 copies the second site
 * into the tail of the first one's out-of-line block), and each copy
 * brings its own record. */
int late_damaged;

__attribute__((constructor(101))) static void damage_second_site(void) {
  const uintptr_t second = (uintptr_t)&XSDT_SDT_PROBE_SYM_(late, libf, f,
                                                           second);
  for (const char *r = __start_xsdt_sdt_sites; r < __stop_xsdt_sdt_sites;
       r += 12)
    if (self_relative(r + 8) == second) {
      rt_jump_poke(self_relative(r), rt_jump_foreign);
      ++late_damaged;
    }
}
