/* Adapter: xsdt's own USDT probes (<xsdt/usdt.h>).
 *
 * xsdt-impl role: subject
 * xsdt-impl features: xsdt-probe-api usdt-semaphores sdt-jump-sites sdt9-api
 * xsdt-impl features: dtrace-diagnostics
 * xsdt-impl generator: xsdt-dtrace
 */
#include <xsdt/usdt.h>

#define IMPL_PROBE(...) XSDT_PROBE(__VA_ARGS__)
