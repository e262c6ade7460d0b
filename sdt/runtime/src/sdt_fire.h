// Private to libxsdt: what SDT enable and disable (sdt_enable.cpp) need
// from the fire path (sdt_fire.cpp). Only these two calls cross over: the
// fire path's state stays inside its own translation unit, where the entry
// points that the sites call inline it.
#ifndef XSDT_RUNTIME_SDT_FIRE_H
#define XSDT_RUNTIME_SDT_FIRE_H

#include "xsdt/runtime.h"

namespace xsdt::rt {

// Under api_lock(), before the first site is written (later calls return
// at once): the barrier
// mode (the fire path reads it without ordering, so it must not change
// while sites are live), the slot key and the fork handler. Returns false
// and fills err when one of them cannot be set up.
bool prepare_fire_path(xsdt_error *err);

// Called after every disabled probe's `runtime` was cleared (seq_cst):
// returns once no thread can still be in one of their handlers.
void wait_for_handlers();

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SDT_FIRE_H
