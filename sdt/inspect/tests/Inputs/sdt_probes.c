/* Fixture for xsdt-inspect's tests: SDT(9) probes through <xsdt/sdt.h>
 * beside one stapsdt probe, built for every available target. Six
 * definitions and seven sites; the ids the tests expect follow from the
 * definitions below and the functions holding the sites. */
#include <xsdt/sdt.h>

#include "fire_stubs.h"

SDT_PROVIDER_DEFINE(demo);

/* Module and function given; two sites in one function. */
SDT_PROBE_DEFINE2(demo, netmod, sendfn, packet__sent, "int", "const char *");
/* Empty module and function, one site: module = file, function = sdt_xlate. */
SDT_PROBE_DEFINE1_XLATE(demo, , , translated, "struct mbuf *", "pktinfo_t *");
/* Empty function, sites in two functions: the function stays empty. */
SDT_PROBE_DEFINE0(demo, , , two__funcs);
/* Untyped (FreeBSD's SDT_PROBE_DEFINE), fired with two arguments. */
SDT_PROBE_DEFINE(demo, kmod, kfunc, untyped);
/* The most arguments a definition takes. */
SDT_PROBE_DEFINE7(demo, , , seven, "int", "long", "char *", "void *",
                  "unsigned", "short", "int");
/* Never fired: no site. */
SDT_PROBE_DEFINE1(demo, , , unfired, "int");

/* One function per site group, kept whole (no clones, no inlining) so that
 * each site stays in the symbol the tests name. */
#if defined(__clang__)
#define SITE_FUNCTION __attribute__((noinline))
#else
#define SITE_FUNCTION __attribute__((noinline, noclone))
#endif

volatile int sink;

SITE_FUNCTION void sdt_send(int fd, const char *what) {
  SDT_PROBE2(demo, netmod, sendfn, packet__sent, fd, what);
  sink = fd;
  SDT_PROBE2(demo, netmod, sendfn, packet__sent, fd + 1, what);
  sink = fd + 1;
}

SITE_FUNCTION void sdt_xlate(void *mbuf) {
  SDT_PROBE1(demo, , , translated, mbuf);
  sink = 2;
}

SITE_FUNCTION void sdt_first(void) {
  SDT_PROBE0(demo, , , two__funcs);
  sink = 3;
}

SITE_FUNCTION void sdt_second(void) {
  SDT_PROBE0(demo, , , two__funcs);
  sink = 4;
}

SITE_FUNCTION void sdt_untyped(int a) {
  SDT_PROBE2(demo, kmod, kfunc, untyped, a, a + 1);
  sink = 5;
}

SITE_FUNCTION void sdt_seven(int a, long b, char *c, void *d, unsigned e,
                             short f, int g) {
  SDT_PROBE7(demo, , , seven, a, b, c, d, e, f, g);
  sink = 6;
}

SITE_FUNCTION void stapsdt_one(int a) {
  XSDT_PROBE(demo, usdt, a);
  sink = 7;
}

int main(int argc, char **argv) {
  sdt_send(argc, argv[0]);
  sdt_xlate(argv);
  sdt_first();
  sdt_second();
  sdt_untyped(argc);
  sdt_seven(argc, 2, argv[0], argv, 5u, (short)6, 7);
  stapsdt_one(argc);
  return 0;
}
