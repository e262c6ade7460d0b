/* Failures in a library loaded after an enable (late-foreign-lib.c, whose
 * second site holds foreign bytes before libxsdt sees it).
 *
 * Usage: late-foreign-main jump|trap LIB foreign|refuse-mprotect
 *   foreign: the foreign site is an invalid record, as it would be in a
 *     library loaded before the enable: never written, named by
 *     xsdt_sdt_list_invalid(); the library's valid site fires.
 *   refuse-mprotect: mprotect fails while the library loads, so the
 *     enabling in force cannot be applied: all or nothing, the valid site
 *     stays the NOP, no hit, and xsdt_late_error() reports it once. */
#include "jump-test.h"

#include <dlfcn.h>
#include <errno.h>

SDT_PROVIDER_DEFINE(late);
SDT_PROBE_DEFINE1(late, main, f, hit, "int");

static int hits;

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)u;
  if (strcmp(p->module, "libf") == 0 && a[0] == 5)
    ++hits;
}

/* Linked with -Wl,--wrap=mprotect: libxsdt's calls come here. */
static int refuse_mprotect;
int __real_mprotect(void *addr, size_t len, int prot);
int __wrap_mprotect(void *addr, size_t len, int prot) {
  if (refuse_mprotect) {
    errno = EACCES;
    return -1;
  }
  return __real_mprotect(addr, len, prot);
}

static void print_invalid(const char *message, void *user) {
  if (strstr(message, "libf"))
    ++*(int *)user;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  xsdt_mode mode = jt_parse_mode(argv[1]);
  RT_EXPECT_RESULT(xsdt_sdt_enable("late:::", mode, on_hit, NULL, &jt_err), 1,
                   &jt_err);
  refuse_mprotect = strcmp(argv[3], "refuse-mprotect") == 0;
  void *lib = dlopen(argv[2], RTLD_NOW);
  refuse_mprotect = 0;
  if (!lib) {
    printf("FAIL dlopen %s: %s\n", argv[2], dlerror());
    return 1;
  }
  int (*fire)(int) = (int (*)(int))(uintptr_t)dlsym(lib, "late_fire");
  fire(5);
  printf("hits from the library: %d\n", hits);

  xsdt_error err;
  int failures = xsdt_late_error(&err);
  printf("late failures: %d", failures);
  if (failures)
    printf(", %s, names the library: %s", xsdt_status_name(err.code),
           strstr(err.message, argv[2]) ? "yes" : "no");
  printf("\nlate failures again: %d\n", xsdt_late_error(&err));

  int invalid = 0;
  RT_CHECK(xsdt_sdt_list_invalid(print_invalid, &invalid, &err) >= 0);
  /* As many as the library damaged (each copy of its second site), and
   * at least one. */
  const int *damaged = (const int *)dlsym(lib, "late_damaged");
  if (damaged && invalid == *damaged && invalid >= 1)
    printf("invalid records of the library: one per damaged site\n");
  else
    printf("invalid records of the library: %d, damaged: %d\n", invalid,
           damaged ? *damaged : -1);
  struct jt_sites sites;
  jt_list_sites("late:libf:f:first", &sites);
  RT_CHECK(sites.n == 1);
  if (sites.n == 1)
    printf("first site: %s\n", sites.s[0].state == mode ? "enabled"
                               : sites.s[0].state == 0 &&
                                       jt_is_nop(sites.s[0].site)
                                   ? "disabled, the NOP"
                                   : "neither");
  return rt_finish();
}
