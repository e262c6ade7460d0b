// The status and mode words (status.h), and xsdt_status_name, the C API
// that reads them: one table, so that a new status gets its symbol and its
// sentence in one place.
#include "status.h"

#include <iterator>

namespace xsdt::rt {
namespace {

struct StatusWords {
  xsdt_status code;
  const char *symbol;
  const char *text;
};

// Indexed by code. XSDT_ERR_VERSION is the last status of runtime.h: a new
// one goes after it there, and here.
constexpr StatusWords kStatuses[] = {
    {XSDT_OK, "XSDT_OK", "success"},
    {XSDT_ERR_NO_MATCH, "XSDT_ERR_NO_MATCH",
     "the description matches no probe"},
    {XSDT_ERR_BAD_PATTERN, "XSDT_ERR_BAD_PATTERN",
     "malformed probe description"},
    {XSDT_ERR_BAD_NOTE, "XSDT_ERR_BAD_NOTE", "malformed stapsdt note"},
    {XSDT_ERR_BAD_SPEC, "XSDT_ERR_BAD_SPEC",
     "an argument spec cannot be decoded"},
    {XSDT_ERR_UNEXPECTED_BYTES, "XSDT_ERR_UNEXPECTED_BYTES",
     "a site does not hold the expected instruction"},
    {XSDT_ERR_ALREADY_ENABLED, "XSDT_ERR_ALREADY_ENABLED",
     "a probe is already enabled"},
    {XSDT_ERR_NOT_ENABLED, "XSDT_ERR_NOT_ENABLED", "a probe is not enabled"},
    {XSDT_ERR_PROTECT, "XSDT_ERR_PROTECT",
     "cannot change the protection of code pages"},
    {XSDT_ERR_SIGNAL, "XSDT_ERR_SIGNAL",
     "cannot install the trap signal handler"},
    {XSDT_ERR_INTERNAL, "XSDT_ERR_INTERNAL",
     "internal error (out of memory, or an exception)"},
    {XSDT_ERR_MODE_CONFLICT, "XSDT_ERR_MODE_CONFLICT",
     "a probe is enabled in the other mode"},
    {XSDT_ERR_BAD_MODE, "XSDT_ERR_BAD_MODE",
     "the mode is not available for the probe"},
    {XSDT_ERR_BAD_OPTION, "XSDT_ERR_BAD_OPTION",
     "unknown option or bad option value"},
    {XSDT_ERR_BAD_STATE, "XSDT_ERR_BAD_STATE", "call out of lifecycle order"},
    {XSDT_ERR_VERSION, "XSDT_ERR_VERSION", "consumer API version mismatch"},
};

constexpr bool indexed_by_code() {
  for (std::size_t i = 0; i < std::size(kStatuses); ++i)
    if (kStatuses[i].code != static_cast<int>(i))
      return false;
  return true;
}
static_assert(std::size(kStatuses) == XSDT_ERR_VERSION + 1,
              "every xsdt_status has its words");
static_assert(indexed_by_code());

const StatusWords *words_of(int code) {
  if (code < 0 || static_cast<std::size_t>(code) >= std::size(kStatuses))
    return nullptr;
  return &kStatuses[code];
}

} // namespace

const char *status_symbol(int code) {
  const StatusWords *words = words_of(code);
  return words ? words->symbol : nullptr;
}

const char *status_text(int code) {
  const StatusWords *words = words_of(code);
  return words ? words->text : nullptr;
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

} // namespace xsdt::rt

const char *xsdt_status_name(xsdt_status code) {
  const char *symbol = xsdt::rt::status_symbol(code);
  return symbol ? symbol : "XSDT_ERR_UNKNOWN";
}
