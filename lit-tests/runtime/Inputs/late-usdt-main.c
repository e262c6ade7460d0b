/* USDT probes (trap mode) of objects loaded after xsdt_enable
 * (docs/runtime.md, "Objects loaded later").
 * Usage: late-usdt-main hook|next|reload LIB [LIB2]
 *
 * Enables "late:*" (which matches this program's own probe, so that the
 * enable succeeds), disables the narrower "late:narrowed" (nothing enabled
 * matches it yet), then dlopens LIB and calls its late_fire(x, y):
 *  hook    LIB registers itself (<xsdt/usdt.h>): late:hit fires with the
 *          values passed here before any other libxsdt call;
 *  next    LIB has no hook (<sys/sdt.h>): nothing fires until the next API
 *          call (xsdt_list here), then late:hit fires;
 *  reload  as hook, then dlclose LIB, disable "late:*" (counts only loaded
 *          sites), enable "late:hit", load LIB again and LIB2: each fires
 *          exactly once per call, nothing fires after the disable.
 * late:narrowed (excluded by the later disable) and other:miss (not
 * matched) never fire. */
#include "rt-test.h"

#include <dlfcn.h>

static int hits, narrowed, missed;
static int64_t got_x, got_y;

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)u;
  if (strcmp(p->provider, "other") == 0)
    ++missed;
  else if (strcmp(p->name, "narrowed") == 0)
    ++narrowed;
  else if (strcmp(p->object, "") != 0 && argc == 2) {
    ++hits;
    got_x = (int64_t)a[0].bits;
    got_y = (int64_t)a[1].bits;
  }
}

typedef int (*fire_fn)(int, long long);

static fire_fn load(const char *path, void **handle) {
  *handle = dlopen(path, RTLD_NOW);
  if (!*handle) {
    printf("FAIL dlopen %s: %s\n", path, dlerror());
    exit(1);
  }
  return (fire_fn)(uintptr_t)dlsym(*handle, "late_fire");
}

static void fire_and_check(fire_fn fire, const char *what, int x,
                           long long y) {
  hits = 0;
  fire(x, y);
  RT_CHECK(hits == 1);
  RT_CHECK(got_x == x);
  RT_CHECK(got_y == y);
  printf("%s: %d hit(s), args %lld %lld\n", what, hits, (long long)got_x,
         (long long)got_y);
}

__attribute__((noinline)) static void main_probe(int x) {
  XSDT_PROBE(late, hit, x);
}

int main(int argc, char **argv) {
  xsdt_error err;
  if (argc < 3)
    return 2;
  const char *how = argv[1];
  RT_EXPECT_RESULT(xsdt_enable("late:*", on_hit, NULL, &err), 1, &err);
  RT_EXPECT_RESULT(xsdt_disable("late:narrowed", &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_NOT_ENABLED);
  main_probe(1);

  void *a;
  fire_fn fire = load(argv[2], &a);
  /* A <sys/sdt.h> library ("next") gets a value that fits 32 bits: that
   * header cannot describe a 64-bit one on armhf (catalog
   * armhf-wide-values), which is not what this case is about. */
  long long y = strcmp(how, "next") == 0 ? -50000 : -5000000000LL;
  if (strcmp(how, "next") == 0) {
    hits = 0;
    fire(-7, y);
    printf("before the next call: %d hit(s)\n", hits);
    RT_CHECK(hits == 0);
    RT_CHECK(xsdt_list(NULL, NULL, &err) > 0);
  }
  fire_and_check(fire, "lib", -7, y);
  RT_CHECK(xsdt_late_error(&err) == 0);

  if (strcmp(how, "reload") == 0 && argc >= 4) {
    dlclose(a);
    /* The library's sites were restored as it unloaded: main's is left. */
    RT_EXPECT_RESULT(xsdt_disable("late:*", &err), 1, &err);
    RT_EXPECT_RESULT(xsdt_enable("late:hit", on_hit, NULL, &err), 1, &err);
    fire = load(argv[2], &a);
    fire_and_check(fire, "lib", 11, 12);
    void *b;
    fire_fn fire_b = load(argv[3], &b);
    fire_and_check(fire_b, "lib2", 21, 22);
    dlclose(a);
    fire_and_check(fire_b, "lib2", 31, 32);
    RT_EXPECT_RESULT(xsdt_disable("late:hit", &err), 2, &err);
    hits = 0;
    fire_b(1, 2);
    RT_CHECK(hits == 0);
    dlclose(b);
  } else {
    RT_EXPECT_RESULT(xsdt_disable("late:*", &err), 2, &err);
    hits = 0;
    fire(1, 2);
    RT_CHECK(hits == 0);
  }
  RT_CHECK(narrowed == 0);
  RT_CHECK(missed == 0);
  return rt_finish();
}
