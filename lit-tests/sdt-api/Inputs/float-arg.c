/* SDT(9) arguments are integers and pointers; a floating-point argument
 * must be refused at compile time rather than silently converted. */
#include <xsdt/sdt.h>
SDT_PROVIDER_DEFINE(api);
SDT_PROBE_DEFINE1(api, , , real, "double");
void fire(double d) { SDT_PROBE1(api, , , real, d); }
