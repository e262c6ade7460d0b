// libxsdt: the C entry points of xsdt/runtime.h: the USDT calls, each a
// guard around its body in usdt.cpp so that no exception crosses into C,
// and xsdt_status_name. Apart from the USDT part because this is the C
// API's edge (the one place that turns exceptions into status codes), not
// how probes are enabled.
#include "xsdt/runtime.h"

#include "errors.h"
#include "usdt.h"

// ---- C entry points: no exception crosses into C ----------------------------

extern "C" {

int xsdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err) {
  try {
    return xsdt::rt::usdt_list(visit, user, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

int xsdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                xsdt_error *err) {
  try {
    return xsdt::rt::usdt_enable(pattern, handler, user, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

int xsdt_disable(const char *pattern, xsdt_error *err) {
  try {
    return xsdt::rt::usdt_disable(pattern, err);
  } catch (...) {
    return xsdt::rt::fail(err, XSDT_ERR_INTERNAL, "out of memory");
  }
}

const char *xsdt_status_name(xsdt_status code) {
  switch (code) {
  case XSDT_OK:
    return "XSDT_OK";
  case XSDT_ERR_NO_MATCH:
    return "XSDT_ERR_NO_MATCH";
  case XSDT_ERR_BAD_PATTERN:
    return "XSDT_ERR_BAD_PATTERN";
  case XSDT_ERR_BAD_NOTE:
    return "XSDT_ERR_BAD_NOTE";
  case XSDT_ERR_BAD_SPEC:
    return "XSDT_ERR_BAD_SPEC";
  case XSDT_ERR_UNEXPECTED_BYTES:
    return "XSDT_ERR_UNEXPECTED_BYTES";
  case XSDT_ERR_ALREADY_ENABLED:
    return "XSDT_ERR_ALREADY_ENABLED";
  case XSDT_ERR_NOT_ENABLED:
    return "XSDT_ERR_NOT_ENABLED";
  case XSDT_ERR_PROTECT:
    return "XSDT_ERR_PROTECT";
  case XSDT_ERR_SIGNAL:
    return "XSDT_ERR_SIGNAL";
  case XSDT_ERR_INTERNAL:
    return "XSDT_ERR_INTERNAL";
  case XSDT_ERR_MODE_CONFLICT:
    return "XSDT_ERR_MODE_CONFLICT";
  case XSDT_ERR_BAD_MODE:
    return "XSDT_ERR_BAD_MODE";
  case XSDT_ERR_BAD_OPTION:
    return "XSDT_ERR_BAD_OPTION";
  case XSDT_ERR_BAD_STATE:
    return "XSDT_ERR_BAD_STATE";
  case XSDT_ERR_VERSION:
    return "XSDT_ERR_VERSION";
  }
  return "XSDT_ERR_UNKNOWN";
}

} // extern "C"
