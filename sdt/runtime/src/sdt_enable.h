// Private to libxsdt: the bodies of the SDT part's C API (sdt_enable.cpp),
// called by its C glue (sdt_api.cpp). Each returns what the C function of
// <xsdt/sdt-runtime.h> with the same job returns, and may throw
// std::bad_alloc, which the glue turns into an error.
#ifndef XSDT_RUNTIME_SDT_ENABLE_H
#define XSDT_RUNTIME_SDT_ENABLE_H

#include "xsdt/sdt-runtime.h"

namespace xsdt::rt {

int sdt_enable(const char *pattern, xsdt_mode mode, xsdt_sdt_handler handler,
               void *user, xsdt_error *err);
int sdt_disable(const char *pattern, xsdt_error *err);

// Visitors run without api_lock(), so they may enable and disable.
int sdt_list(xsdt_sdt_probe_visitor visit, void *user, xsdt_error *err);
int sdt_list_sites(xsdt_sdt_site_visitor visit, void *user, xsdt_error *err);
int sdt_list_invalid(xsdt_sdt_invalid_visitor visit, void *user,
                     xsdt_error *err);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SDT_ENABLE_H
