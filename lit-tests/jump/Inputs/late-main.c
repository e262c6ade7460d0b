/* SDT(9) probes of objects loaded after an enable (docs/runtime.md,
 * "Objects loaded later"). Usage: late-main jump|trap once|reload LIB [LIB2]
 *
 * Enables "late:::" (which matches this program's own probe, so that the
 * enable succeeds), then disables the narrower "late::f:narrowed" (nothing
 * enabled matches it yet), then dlopens LIB and calls its late_fire(x, y)
 * before any other libxsdt call: late:...:hit must fire with the values
 * passed here, late:...:narrowed (excluded by the later disable) and
 * other:...:miss (not matched) must not. "reload": then dlcloses LIB,
 * checks that the disable of "late:::" counts only loaded probes, enables
 * "late:::hit" again, and loads LIB (the same code, likely at the same
 * address) and LIB2 (another library): each fires exactly once per call. */
#include "jump-test.h"

#include <dlfcn.h>

SDT_PROVIDER_DEFINE(late);
SDT_PROBE_DEFINE1(late, main, f, hit, "int");

static int hits, narrowed, missed;
static int64_t got_x, got_y;
static char got_module[64];

static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)u;
  if (strcmp(p->provider, "other") == 0) {
    ++missed;
  } else if (strcmp(p->name, "narrowed") == 0) {
    ++narrowed;
  } else if (strcmp(p->module, "main") != 0) {
    ++hits;
    got_x = (int64_t)a[0];
    got_y = (int64_t)a[1];
    snprintf(got_module, sizeof got_module, "%s", p->module);
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

/* The state of the site of probe id, or -1 when it is not listed. */
struct state_query {
  const char *suffix;
  int state;
};
static void state_visit(const xsdt_sdt_site_info *s, void *user) {
  struct state_query *q = (struct state_query *)user;
  size_t n = strlen(s->probe->id), m = strlen(q->suffix);
  if (n >= m && strcmp(s->probe->id + n - m, q->suffix) == 0)
    q->state = (int)s->state;
}
static int state_of(const char *suffix) {
  struct state_query q = {suffix, -1};
  xsdt_error err;
  if (xsdt_sdt_list_sites(state_visit, &q, &err) < 0)
    printf("FAIL list_sites: %s\n", err.message);
  return q.state;
}

/* Calls the library and checks that late:...:hit fired once with x, y. */
static void fire_and_check(fire_fn fire, const char *module, int x,
                           long long y) {
  hits = 0;
  fire(x, y);
  RT_CHECK(hits == 1);
  RT_CHECK(got_x == x);
  RT_CHECK(got_y == y);
  RT_CHECK(strcmp(got_module, module) == 0);
  printf("%s: %d hit(s), args %lld %lld\n", module, hits, (long long)got_x,
         (long long)got_y);
}

int main(int argc, char **argv) {
  xsdt_error err;
  if (argc < 4)
    return 2;
  xsdt_mode mode = strcmp(argv[1], "trap") == 0 ? XSDT_MODE_TRAP
                                                 : XSDT_MODE_JUMP;
  RT_EXPECT_RESULT(xsdt_sdt_enable("late:::", mode, on_hit, NULL, &err), 1,
                   &err);
  RT_EXPECT_RESULT(xsdt_sdt_disable("late::f:narrowed", &err), -1, &err);
  RT_CHECK(err.code == XSDT_ERR_NOT_ENABLED);

  void *a;
  fire_fn fire = load(argv[3], &a);
  /* No libxsdt call between dlopen and the hit. */
  fire_and_check(fire, "liba", -7, -5000000000LL);
  RT_CHECK(narrowed == 0);
  RT_CHECK(missed == 0);
  printf("liba hit: %s\n", state_of(":liba:f:hit") == (int)mode ? "enabled"
                                                               : "not enabled");
  printf("liba narrowed: %d, miss: %d\n", state_of(":liba:f:narrowed"),
         state_of(":liba:f:miss"));
  RT_CHECK(xsdt_late_error(&err) == 0);

  if (strcmp(argv[2], "reload") == 0 && argc >= 5) {
    dlclose(a);
    /* liba's probe was disabled as it unloaded: only main's is left. */
    RT_EXPECT_RESULT(xsdt_sdt_disable("late:::", &err), 1, &err);
    RT_EXPECT_RESULT(xsdt_sdt_enable("late:::hit", mode, on_hit, NULL, &err),
                     1, &err);
    fire = load(argv[3], &a);
    fire_and_check(fire, "liba", 11, 12);
    void *b;
    fire_fn fire_b = load(argv[4], &b);
    fire_and_check(fire_b, "libb", 21, 22);
    fire_and_check(fire, "liba", 31, 32);
    dlclose(a);
    fire_and_check(fire_b, "libb", 41, 42);
    RT_EXPECT_RESULT(xsdt_sdt_disable("late:::hit", &err), 2, &err);
    hits = 0;
    fire_b(1, 2);
    RT_CHECK(hits == 0);
    dlclose(b);
    RT_CHECK(xsdt_late_error(&err) == 0);
  } else {
    RT_EXPECT_RESULT(xsdt_sdt_disable("late:::", &err), 2, &err);
    hits = 0;
    fire(1, 2);
    RT_CHECK(hits == 0);
  }
  RT_CHECK(narrowed == 0);
  RT_CHECK(missed == 0);
  return rt_finish();
}
