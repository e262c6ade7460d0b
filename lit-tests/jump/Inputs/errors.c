/* Errors of the SDT(9) API: clean codes and messages, nothing half done.
 *   - a pattern that matches no probe: XSDT_ERR_NO_MATCH naming it;
 *     a description of five parts: XSDT_ERR_BAD_PATTERN;
 *   - jump then trap on one probe (and trap then jump):
 *     XSDT_ERR_MODE_CONFLICT, the first mode stays in place and works;
 *   - foreign bytes at one site (another patcher was here, written through
 *     mprotect before the enable): XSDT_ERR_UNEXPECTED_BYTES naming the
 *     probe and address, and NO site patched, not even the healthy ones. */
#include "jump-test.h"

SDT_PROVIDER_DEFINE(je);
SDT_PROBE_DEFINE1(je, e, f, a, "int");
SDT_PROBE_DEFINE1(je, e, f, b, "int");
SDT_PROBE_DEFINE1(je, e, f, c, "int");

static int hits;
static void on_hit(const xsdt_sdt_probe_info *p, const uint64_t *a,
                   void *user) {
  (void)p, (void)a, (void)user;
  ++hits;
}

JT_NOIPA void fire_a(int x) { SDT_PROBE1(je, e, f, a, x); }
JT_NOIPA void fire_b(int x) { SDT_PROBE1(je, e, f, b, x); }
JT_NOIPA void fire_c(int x) { SDT_PROBE1(je, e, f, c, x); }
static void fire_all(void) {
  fire_a(1);
  fire_b(2);
  fire_c(3);
}

static void expect_error(int got, xsdt_status want) {
  RT_CHECK(got == -1);
  if (jt_err.code != want)
    printf("FAIL want %s\n", xsdt_status_name(want));
  RT_CHECK(jt_err.code == want);
  printf("%s: %s\n", xsdt_status_name(jt_err.code), jt_err.message);
}

static struct jt_sites sites;

/* The site of probe id (one site each here). */
static uintptr_t site_of(const char *id) {
  uintptr_t pc = 0;
  RT_CHECK(jt_sites_of(&sites, id, &pc, 1) == 1);
  return pc;
}

static int all_nop(void) {
  int ok = 1;
  for (int i = 0; i < sites.n; ++i)
    ok &= jt_is_nop(sites.s[i].site);
  return ok;
}

int main(void) {
  jt_list_sites("je:", &sites);
  RT_CHECK(sites.n == 3);
  uintptr_t a = site_of("je:e:f:a"), b = site_of("je:e:f:b");
  char hex[32];

  /* Unknown and malformed descriptions. */
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("nosuch:::", XSDT_MODE_JUMP, on_hit, NULL,
                               &jt_err),
               XSDT_ERR_NO_MATCH);
  RT_CHECK(strstr(jt_err.message, "nosuch") != NULL);
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:e:f:nosuch", XSDT_MODE_TRAP, on_hit, NULL,
                               &jt_err),
               XSDT_ERR_NO_MATCH);
  RT_CHECK(strstr(jt_err.message, "je:e:f:nosuch") != NULL);
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:e:f:a:x", XSDT_MODE_JUMP, on_hit, NULL,
                               &jt_err),
               XSDT_ERR_BAD_PATTERN);
  RT_CHECK(all_nop());

  /* Jump, then trap: a conflict; the jump stays and still works. */
  JT_EXPECT(xsdt_sdt_enable("je:e:f:a", XSDT_MODE_JUMP, on_hit, NULL, &jt_err),
            1);
  char jump_bytes[32];
  jt_hex(jump_bytes, sizeof jump_bytes, a);
  RT_CHECK(!jt_is_nop(a) && !jt_is_trap(a));
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:e:f:a", XSDT_MODE_TRAP, on_hit, NULL,
                               &jt_err),
               XSDT_ERR_MODE_CONFLICT);
  RT_CHECK(strstr(jt_err.message, "je:e:f:a") != NULL);
  /* A pattern over a, b and c conflicts on a and patches nothing else. */
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:::", XSDT_MODE_TRAP, on_hit, NULL, &jt_err),
               XSDT_ERR_MODE_CONFLICT);
  RT_CHECK(strcmp(jt_hex(hex, sizeof hex, a), jump_bytes) == 0);
  RT_CHECK(jt_is_nop(b) && jt_is_nop(site_of("je:e:f:c")));
  fire_all();
  RT_CHECK(hits == 1);
  JT_EXPECT(xsdt_sdt_disable("je:::", &jt_err), 1);
  RT_CHECK(all_nop());

  /* Trap, then jump: the same the other way round. */
  JT_EXPECT(xsdt_sdt_enable("je:e:f:a", XSDT_MODE_TRAP, on_hit, NULL, &jt_err),
            1);
  RT_CHECK(jt_is_trap(a));
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:e:f:a", XSDT_MODE_JUMP, on_hit, NULL,
                               &jt_err),
               XSDT_ERR_MODE_CONFLICT);
  RT_CHECK(jt_is_trap(a));
  fire_all();
  RT_CHECK(hits == 2);
  JT_EXPECT(xsdt_sdt_disable("je:e:f:a", &jt_err), 1);
  RT_CHECK(all_nop());
  printf("after conflicts: hits %d\n", hits);

  /* Foreign bytes at b: nothing is patched. */
  rt_jump_poke(b, rt_jump_foreign);
  RT_CHECK(rt_jump_bytes_are(b, rt_jump_foreign));
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:::", XSDT_MODE_JUMP, on_hit, NULL, &jt_err),
               XSDT_ERR_UNEXPECTED_BYTES);
  char where[64];
  snprintf(where, sizeof where, "%#lx", (unsigned long)b);
  RT_CHECK(strstr(jt_err.message, "je:e:f:b") != NULL);
  RT_CHECK(strstr(jt_err.message, where) != NULL);
  for (int i = 0; i < sites.n; ++i)
    if (sites.s[i].site != b && !jt_is_nop(sites.s[i].site))
      printf("FAIL %s patched: %s\n", sites.s[i].id,
             jt_hex(hex, sizeof hex, sites.s[i].site));
  RT_CHECK(jt_is_nop(a));
  RT_CHECK(jt_is_nop(site_of("je:e:f:c")));
  RT_CHECK(rt_jump_bytes_are(b, rt_jump_foreign));
  fire_all();
  RT_CHECK(hits == 2);
  /* The same in trap mode. */
  memset(&jt_err, 0, sizeof jt_err);
  expect_error(xsdt_sdt_enable("je:::", XSDT_MODE_TRAP, on_hit, NULL, &jt_err),
               XSDT_ERR_UNEXPECTED_BYTES);
  RT_CHECK(jt_is_nop(a));
  RT_CHECK(rt_jump_bytes_are(b, rt_jump_foreign));
  fire_all();
  RT_CHECK(hits == 2);

  /* With the NOP back, the same pattern enables all three. */
  jt_poke_nop(b);
  JT_EXPECT(xsdt_sdt_enable("je:::", XSDT_MODE_JUMP, on_hit, NULL, &jt_err), 3);
  fire_all();
  JT_EXPECT(xsdt_sdt_disable("je:::", &jt_err), 3);
  RT_CHECK(all_nop());
  printf("hits %d\n", hits);
  return rt_finish();
}
