/* <xsdt/sys-sdt.h> and SystemTap's <sys/sdt.h> in one file: after xsdt's,
 * sys/sdt.h is skipped (its guard _SYS_SDT_H is defined) and the probe is
 * xsdt's; before it (-DSYSTEMTAP_FIRST), a clear #error. */
#ifdef SYSTEMTAP_FIRST
#include <sys/sdt.h>
#include <xsdt/sys-sdt.h>
#else
#include <xsdt/sys-sdt.h>
#include <sys/sdt.h>
#endif

void probe(int x);
void probe(int x) { STAP_PROBE1(compat, order, x); }
