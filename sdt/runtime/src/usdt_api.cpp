// libxsdt: the C entry points of xsdt/runtime.h: the USDT calls, each a
// guard around its body in usdt.cpp so that no exception crosses into C
// (xsdt_status_name is status.cpp's). Apart from the USDT part because this is
// the C API's edge (the one place that turns exceptions into status codes), not
// how probes are enabled.
#include "xsdt/runtime.h"

#include "api_guard.h"
#include "machdep.h"
#include "usdt.h"

// ---- C entry points: no exception crosses into C ----------------------------

extern "C" {

int xsdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err) {
  return xsdt::rt::guard_error(
      err, "xsdt_list", [&] { return xsdt::rt::usdt_list(visit, user, err); });
}

int xsdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_enable", [&] {
    return xsdt::rt::usdt_enable(pattern, handler, user, false, err);
  });
}

int xsdt_enable_jump(const char *pattern, xsdt_probe_handler handler,
                     void *user, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_enable_jump", [&] {
    return xsdt::rt::usdt_enable(pattern, handler, user, true, err);
  });
}

int xsdt_usdt_jumps(void) { return xsdt::rt::machdep::usdt_jump_port() != 0; }

int xsdt_disable(const char *pattern, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_disable", [&] {
    return xsdt::rt::usdt_disable(pattern, err);
  });
}

} // extern "C"
