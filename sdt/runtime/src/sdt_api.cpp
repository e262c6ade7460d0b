// libxsdt, SDT(9) part: the C glue of <xsdt/sdt-runtime.h>. Each function
// calls its body in sdt_enable.cpp and stops any exception there, so that
// none crosses into C. A file of its own so that the guards sit in one
// place, apart from the logic they guard. (xsdt_get_patch_stats is the
// patcher's, so that reading the counters does not pull the SDT part in.)
#include "xsdt/sdt-runtime.h"

#include "api_guard.h"
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

} // extern "C"
