/* A site of a probe that patch-bytes.c defines, in another translation
 * unit of the same program. */
#include <xsdt/sdt.h>

SDT_PROVIDER_DECLARE(jb);
SDT_PROBE_DECLARE(jb, pb, f, other);

const char tu2_text[] = "tu2";

void fire_other(int x, const char *s);
__attribute__((noinline)) void fire_other(int x, const char *s) {
  SDT_PROBE2(jb, pb, f, other, x, s);
}
