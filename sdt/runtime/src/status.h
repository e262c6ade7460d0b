// Private to libxsdt: the words for each xsdt_status and xsdt_mode, written
// once for the USDT, SDT(9) and consumer APIs (xsdt_status_name and
// xsdt_errmsg read the same table).
#ifndef XSDT_RUNTIME_STATUS_H
#define XSDT_RUNTIME_STATUS_H

#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

namespace xsdt::rt {

// "XSDT_ERR_BAD_PATTERN" for XSDT_ERR_BAD_PATTERN; nullptr for a value that
// is no status (a C caller may pass any int).
const char *status_symbol(int code);

// A sentence for the status ("malformed probe description"); nullptr for a
// value that is no status.
const char *status_text(int code);

// "auto", "jump" or "trap"; "?" for a value that is no mode.
const char *mode_name(xsdt_mode mode);

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_STATUS_H
