// Private to libxsdt: the one exception guard of every C API function. The
// callers are C programs (or C++ through a C interface), so no exception
// may leave the library: the API bodies allocate (std::bad_alloc), and the
// visitors and consumers they call back are the caller's code.
#ifndef XSDT_RUNTIME_API_GUARD_H
#define XSDT_RUNTIME_API_GUARD_H

#include "errors.h"

#include <exception>
#include <new>

namespace xsdt::rt {

// Returns body(); if it throws, on_error(why) with "out of memory" for
// std::bad_alloc and the exception's what() for any other. on_error must
// not throw (fail() does not).
template <class Body, class OnError>
auto guarded(Body &&body, OnError &&on_error) noexcept -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return on_error("out of memory");
  } catch (const std::exception &e) {
    return on_error(e.what());
  } catch (...) {
    return on_error("exception of an unknown type");
  }
}

// The form of the functions that report through an xsdt_error: on an
// exception, XSDT_ERR_INTERNAL "<call>: <why>" and -1.
template <class Body>
int guard_error(xsdt_error *err, const char *call, Body &&body) noexcept {
  return guarded(body, [&](const char *why) {
    return fail(err, XSDT_ERR_INTERNAL, "%s: %s", call, why);
  });
}

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_API_GUARD_H
