// Private to libxsdt: how the C API functions of the USDT part (usdt.cpp,
// usdt_api.cpp) and of the SDT part (sdt_api.cpp, sdt_enable.cpp) report their outcome
// through the caller's xsdt_error, which may be null when the caller wants
// no details.
#ifndef XSDT_RUNTIME_ERRORS_H
#define XSDT_RUNTIME_ERRORS_H

#include "xsdt/runtime.h"

#include <cstdarg>
#include <cstdio>

namespace xsdt::rt {

// Records code and the formatted message in err; returns -1, the C API's
// failure value, so that callers can `return fail(...)`.
inline int fail(xsdt_error *err, xsdt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
inline int fail(xsdt_error *err, xsdt_status code, const char *fmt, ...) {
  if (err) {
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return -1;
}

// Marks err as success, so that a reused xsdt_error holds no stale message.
inline void clear(xsdt_error *err) {
  if (err) {
    err->code = XSDT_OK;
    err->message[0] = '\0';
  }
}

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_ERRORS_H
