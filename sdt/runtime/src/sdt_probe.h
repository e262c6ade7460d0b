// Private to libxsdt: the probe object of <xsdt/sdt.h> as the runtime sees
// it, and the Armed record its `runtime` slot points at while the probe is
// enabled. Its own header because two parts meet at that slot: enable and
// disable write it (sdt_enable.cpp), the fire path reads it (sdt_fire.cpp).
#ifndef XSDT_RUNTIME_SDT_PROBE_H
#define XSDT_RUNTIME_SDT_PROBE_H

#include "xsdt/sdt-runtime.h"

// The probe object of <xsdt/sdt.h>. libxsdt is compiled without that
// header's include path (it pulls in the per-arch probe backend), so the
// definition is repeated here, token for token; sdt_runtime_test checks
// the layout from the header's side.
extern "C" {
struct xsdt_sdt_provider;
struct xsdt_sdt_probe {
  const struct xsdt_sdt_provider *provider;
  void *volatile runtime;
};
}

namespace xsdt::rt {

// What `runtime` points at while a probe is enabled.
struct Armed {
  xsdt_sdt_handler handler;
  void *user;
  const xsdt_sdt_probe_info *info;
};

} // namespace xsdt::rt

#endif // XSDT_RUNTIME_SDT_PROBE_H
