/* <xsdt/sys-sdt.h> from assembly source: a clear #error (the backends give
 * their site NOP as a C string only). */
#include <xsdt/sys-sdt.h>
