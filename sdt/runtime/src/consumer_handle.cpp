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

int bad_state(xsdt_hdl *h, const char *call) {
  return fail(h, XSDT_ERR_BAD_STATE, "%s: not allowed %s", call,
              state_problem(h->state));
}

} // namespace xsdt::rt::consumer
