// libxsdt, SDT(9) part: the C glue of <xsdt/sdt-runtime.h>. Each function
// calls its body in sdt_enable.cpp and stops any exception there, so that
// none crosses into C. A file of its own so that the guards sit in one
// place, apart from the logic they guard, and xsdt_get_patch_stats with
// the other C functions of that header.
#include "xsdt/sdt-runtime.h"

// Before patch.h, which uses SiteEncoding without declaring it.
#include "xsdt/arch_port.h"

#include "api_guard.h"
#include "patch.h"
#include "sdt_enable.h"

// ---- C entry points: no exception crosses into C ---------------------------

extern "C" {

int xsdt_sdt_list(xsdt_sdt_probe_visitor visit, void *user, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_sdt_list", [&] {
    return xsdt::rt::sdt_list(visit, user, err);
  });
}

int xsdt_sdt_list_sites(xsdt_sdt_site_visitor visit, void *user,
                        xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_sdt_list_sites", [&] {
    return xsdt::rt::sdt_list_sites(visit, user, err);
  });
}

int xsdt_sdt_list_invalid(xsdt_sdt_invalid_visitor visit, void *user,
                          xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_sdt_list_invalid", [&] {
    return xsdt::rt::sdt_list_invalid(visit, user, err);
  });
}

int xsdt_sdt_enable(const char *pattern, xsdt_mode mode,
                    xsdt_sdt_handler handler, void *user, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_sdt_enable", [&] {
    return xsdt::rt::sdt_enable(pattern, mode, handler, user, err);
  });
}

int xsdt_sdt_disable(const char *pattern, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_sdt_disable", [&] {
    return xsdt::rt::sdt_disable(pattern, err);
  });
}

void xsdt_get_patch_stats(xsdt_patch_stats *out) {
  if (out)
    xsdt::rt::read_patch_stats(out);
}

} // extern "C"
