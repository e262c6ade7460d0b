// The consumer handle's error reporting: the handle's last error and
// message, and the texts of codes and modes. Separate from the API bodies so
// that each of them reports the same way, wherever it lives.
#include "consumer_handle.h"

#include <cstdarg>
#include <cstdio>

namespace xsdt::rt::consumer {
namespace {

const char *state_problem(State state) {
  switch (state) {
  case State::kConfiguring:
    return "before xsdt_go";
  case State::kRunning:
    return "after xsdt_go";
  case State::kStopped:
    return "after xsdt_stop";
  }
  return "now";
}

} // namespace

int fail(xsdt_hdl *h, int code, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  h->last_error = code;
  try {
    h->last_message = text;
  } catch (...) {
    h->last_message.clear(); // errmsg falls back to the generic text
  }
  return -1;
}

const char *generic_message(int code) {
  switch (code) {
  case XSDT_OK:
    return "success";
  case XSDT_ERR_NO_MATCH:
    return "the description matches no probe";
  case XSDT_ERR_BAD_PATTERN:
    return "malformed probe description";
  case XSDT_ERR_BAD_NOTE:
    return "malformed stapsdt note";
  case XSDT_ERR_BAD_SPEC:
    return "an argument spec cannot be decoded";
  case XSDT_ERR_UNEXPECTED_BYTES:
    return "a site does not hold the expected instruction";
  case XSDT_ERR_ALREADY_ENABLED:
    return "a probe is already enabled";
  case XSDT_ERR_NOT_ENABLED:
    return "a probe is not enabled";
  case XSDT_ERR_PROTECT:
    return "cannot change the protection of code pages";
  case XSDT_ERR_SIGNAL:
    return "cannot install the trap signal handler";
  case XSDT_ERR_INTERNAL:
    return "internal error (out of memory)";
  case XSDT_ERR_MODE_CONFLICT:
    return "a probe is enabled in the other mode";
  case XSDT_ERR_BAD_MODE:
    return "the mode is not available for the probe";
  case XSDT_ERR_BAD_OPTION:
    return "unknown option or bad option value";
  case XSDT_ERR_BAD_STATE:
    return "call out of lifecycle order";
  case XSDT_ERR_VERSION:
    return "consumer API version mismatch";
  }
  return "unknown error";
}

const char *mode_name(xsdt_mode mode) {
  switch (mode) {
  case XSDT_MODE_AUTO:
    return "auto";
  case XSDT_MODE_JUMP:
    return "jump";
  case XSDT_MODE_TRAP:
    return "trap";
  }
  return "?";
}

int bad_state(xsdt_hdl *h, const char *call) {
  return fail(h, XSDT_ERR_BAD_STATE, "%s: not allowed %s", call,
              state_problem(h->state));
}

} // namespace xsdt::rt::consumer
