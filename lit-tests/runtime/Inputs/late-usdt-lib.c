/* USDT probes in a library that late-usdt-main.c dlopens after an enable.
 * With LATE_SYS_SDT it is built with SystemTap's <sys/sdt.h> instead: no
 * registration hook, so libxsdt notices it at its next API call. */
#ifdef LATE_SYS_SDT
#include <sys/sdt.h>
/* b as a word: <sys/sdt.h> describes a long long in one register of its
 * pair on armhf (catalog armhf-wide-values). */
#define LATE_PROBE2(p, n, a, b) STAP_PROBE2(p, n, a, (long)(b))
#define LATE_PROBE1(p, n, a) STAP_PROBE1(p, n, a)
#else
#include <xsdt/usdt.h>
#define LATE_PROBE2(p, n, a, b) XSDT_PROBE(p, n, a, b)
#define LATE_PROBE1(p, n, a) XSDT_PROBE(p, n, a)
#endif

__attribute__((noinline)) int late_fire(int x, long long y) {
  LATE_PROBE2(late, hit, x, y);
  LATE_PROBE1(late, narrowed, x + 1);
  LATE_PROBE1(other, miss, x + 2);
  return x;
}
