// Private to libxsdt: the USDT part (usdt.cpp), probes of stapsdt notes
// enabled in trap mode. These are the bodies of the C API of
// xsdt/runtime.h; usdt_api.cpp wraps them so that no exception reaches C.
#ifndef XSDT_RUNTIME_USDT_H
#define XSDT_RUNTIME_USDT_H

#include "xsdt/runtime.h"

namespace xsdt::rt {

// xsdt_list(), xsdt_enable() and xsdt_disable() of xsdt/runtime.h, except
// that they may throw (std::bad_alloc). Each takes api_lock() (patch.h).
int usdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err);
// `jump`: jump mode where the site and the arch allow it (usdt_jump.h),
// trap mode elsewhere (xsdt_enable_jump).
int usdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                bool jump, xsdt_error *err);
int usdt_disable(const char *pattern, xsdt_error *err);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_USDT_H
