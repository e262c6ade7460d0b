/* A shared library replaced on disk by another build after it was loaded
 * (a package upgrade under a running program). Discovery reads the
 * library's file again at each call (the stapsdt notes are only in the
 * file; SDT(9) discovery finds its sections through the file's section
 * headers), so it must notice that the file is no longer the loaded object
 * and trust none of it: the library's USDT and SDT probes are not listed,
 * enabling them is XSDT_ERR_NO_MATCH, and xsdt_sdt_list_invalid names the
 * file and the reason. The main program's own probes still work.
 *
 * Usage: replaced keep            (control: the library is intact)
 *        replaced NEW LOADED      (first renames NEW over LOADED) */
#include "fault-test.h"

#include <stdio.h>

int flib_fire(int x);

SDT_PROVIDER_DEFINE(fmain);
SDT_PROBE_DEFINE1(fmain, m, f, ok, "int");

JT_NOIPA void fire_main(int x) {
  XSDT_PROBE(fmain, ok, x);
  SDT_PROBE1(fmain, m, f, ok, x);
}

static int usdt_hits, sdt_hits;
static int64_t last_usdt, last_sdt;
static void on_usdt(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                    void *u) {
  (void)p, (void)u;
  ++usdt_hits;
  last_usdt = argc > 0 ? (int64_t)a[0].bits : -1;
}
static void on_sdt(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)p, (void)u;
  ++sdt_hits;
  last_sdt = (int)a[0];
}

static void count_flib(const xsdt_probe_info *p, void *user) {
  if (strcmp(p->provider, "flib") == 0) {
    printf("listed: %s:%s\n", p->provider, p->name);
    ++*(int *)user;
  }
}

static void print_invalid(const char *message, void *user) {
  const char *base = strstr(message, "libfaultlib.so");
  printf("invalid: %s\n", base ? base : message);
  ++*(int *)user;
}

int main(int argc, char **argv) {
  const int replace = argc > 2;
  if (replace && rename(argv[1], argv[2]) != 0) {
    perror("rename");
    return 2;
  }
  printf("library %s\n", replace ? "replaced" : "intact");
  xsdt_error err;
  int listed = 0, invalid = 0;
  RT_CHECK(xsdt_list(count_flib, &listed, &err) >= 0);
  RT_CHECK(xsdt_sdt_list_invalid(print_invalid, &invalid, &err) >= 0);

  int u = xsdt_enable("flib:*", on_usdt, NULL, &err);
  ft_print_result("usdt enable flib:*", u, &err);
  int s = xsdt_sdt_enable("flib:::", XSDT_MODE_AUTO, on_sdt, NULL, &err);
  ft_print_result("sdt enable flib:::", s, &err);
  flib_fire(40);
  printf("library hits: usdt %d (arg %lld), sdt %d (arg %lld)\n", usdt_hits,
         (long long)last_usdt, sdt_hits, (long long)last_sdt);
  if (replace) {
    RT_CHECK(listed == 0 && invalid >= 1);
    RT_CHECK(u == -1 && s == -1 && usdt_hits == 0 && sdt_hits == 0);
  } else {
    RT_CHECK(listed == 1 && invalid == 0 && u == 1 && s == 1);
    RT_CHECK(usdt_hits == 1 && last_usdt == 43 && sdt_hits == 1 &&
             last_sdt == 43);
    RT_EXPECT_RESULT(xsdt_disable("flib:*", &err), 1, &err);
    RT_EXPECT_RESULT(xsdt_sdt_disable("flib:::", &err), 1, &err);
  }

  /* The program's own probes do not depend on the library's file. */
  usdt_hits = sdt_hits = 0;
  RT_EXPECT_RESULT(xsdt_enable("fmain:*", on_usdt, NULL, &err), 1, &err);
  RT_EXPECT_RESULT(
      xsdt_sdt_enable("fmain:::", XSDT_MODE_AUTO, on_sdt, NULL, &err), 1,
      &err);
  fire_main(7);
  printf("program hits: usdt %d (arg %lld), sdt %d (arg %lld)\n", usdt_hits,
         (long long)last_usdt, sdt_hits, (long long)last_sdt);
  RT_EXPECT_RESULT(xsdt_disable("fmain:*", &err), 1, &err);
  RT_EXPECT_RESULT(xsdt_sdt_disable("fmain:::", &err), 1, &err);
  return rt_finish();
}
