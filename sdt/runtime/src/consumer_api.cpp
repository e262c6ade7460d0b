// The C entry points of <xsdt/consumer.h>: each refuses a null handle (or,
// for xsdt_open, a version mismatch) and calls its C++ body inside the
// exception guard (api_guard.h). Separate from the bodies so that the boundary
// no exception may cross is in one file, and each body can be ordinary,
// throwing C++.
#include "xsdt/consumer.h"

#include "consumer_handle.h"
#include "consumer_hits.h"
#include "status.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <pthread.h>
#include <string>

// ---- C entry points: no exception crosses into C ----------------------------

extern "C" {

xsdt_hdl *xsdt_open(int version, int *errp) {
  if (version != XSDT_VERSION) {
    if (errp)
      *errp = XSDT_ERR_VERSION;
    return nullptr;
  }
  return xsdt::rt::guarded(
      [&] {
        static const bool atfork_registered [[maybe_unused]] =
            pthread_atfork(nullptr, nullptr,
                           xsdt::rt::consumer::forget_tid_after_fork) == 0;
        auto h = std::make_unique<xsdt_hdl>();
        h->bufsize_text = std::to_string(h->bufsize);
        h->nthreads_text = std::to_string(h->nthreads);
        h->hitarea_text = std::to_string(h->hitarea);
        if (errp)
          *errp = XSDT_OK;
        return h.release();
      },
      [&](const char *) -> xsdt_hdl * {
        if (errp)
          *errp = XSDT_ERR_INTERNAL;
        return nullptr;
      });
}

int xsdt_enable_probes(xsdt_hdl *h, const char *description, xsdt_mode mode) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(h, "xsdt_enable_probes", [&] {
    return xsdt::rt::consumer::enable_probes_impl(h, description, mode);
  });
}

int xsdt_setopt(xsdt_hdl *h, const char *option, const char *value) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(h, "xsdt_setopt", [&] {
    return xsdt::rt::consumer::setopt_impl(h, option, value);
  });
}

const char *xsdt_getopt(xsdt_hdl *h, const char *option) {
  if (!h || !option)
    return nullptr;
  if (std::strcmp(option, "bufsize") == 0)
    return h->bufsize_text.c_str();
  if (std::strcmp(option, "nthreads") == 0)
    return h->nthreads_text.c_str();
  if (std::strcmp(option, "hitarea") == 0)
    return h->hitarea_text.c_str();
  if (std::strcmp(option, "timestamps") == 0)
    return h->timestamps ? "on" : "off";
  // Before go, the choice; from go on, the clock the hits read.
  if (std::strcmp(option, "clock") == 0)
    return h->state == xsdt::rt::consumer::State::kConfiguring
               ? (h->clock_monotonic ? "monotonic" : "auto")
               : h->clock.name();
  return nullptr;
}

int xsdt_handle_drop(xsdt_hdl *h, xsdt_drop_f *handler, void *arg) {
  if (!h)
    return -1;
  h->drop_handler = handler;
  h->drop_arg = arg;
  return 0;
}

int xsdt_handle_hit(xsdt_hdl *h, xsdt_hit_f *hit, void *arg) {
  if (!h)
    return -1;
  if (h->state != xsdt::rt::consumer::State::kConfiguring)
    return xsdt::rt::consumer::bad_state(h, "xsdt_handle_hit");
  h->hit_function = hit;
  h->hit_arg = arg;
  return 0;
}

int xsdt_area_walk(xsdt_hdl *h, xsdt_area_f *visit, void *arg) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(h, "xsdt_area_walk", [&] {
    return xsdt::rt::consumer::area_walk_impl(h, visit, arg);
  });
}

int xsdt_probe_walk(xsdt_hdl *h, xsdt_probe_f *visit, void *arg) {
  if (!h)
    return -1;
  if (!visit)
    return xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL,
                                    "xsdt_probe_walk: no visit function given");
  for (const auto &probe : h->probes)
    if (visit(&probe->desc, arg) != 0)
      break;
  return 0;
}

int xsdt_go(xsdt_hdl *h) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(
      h, "xsdt_go", [&] { return xsdt::rt::consumer::go_impl(h); });
}

xsdt_workstatus xsdt_work(xsdt_hdl *h, xsdt_consume_f *consume, void *arg) {
  if (!h)
    return XSDT_WORKSTATUS_ERROR;
  return xsdt::rt::guarded(
      [&] { return xsdt::rt::consumer::work_impl(h, consume, arg); },
      [&](const char *why) {
        xsdt::rt::consumer::fail(h, XSDT_ERR_INTERNAL, "xsdt_work: %s", why);
        return XSDT_WORKSTATUS_ERROR;
      });
}

int xsdt_stop(xsdt_hdl *h) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(
      h, "xsdt_stop", [&] { return xsdt::rt::consumer::stop_impl(h); });
}

int xsdt_aggregate_walk(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(h, "xsdt_aggregate_walk", [&] {
    return xsdt::rt::consumer::aggregate_walk_impl(h, visit, arg);
  });
}

int xsdt_aggregate_print(xsdt_hdl *h, FILE *out) {
  if (!h)
    return -1;
  return xsdt::rt::consumer::guard_handle(h, "xsdt_aggregate_print", [&] {
    return xsdt::rt::consumer::aggregate_print_impl(h, out);
  });
}

uint64_t xsdt_drops(xsdt_hdl *h) {
  return h ? xsdt::rt::consumer::drops_impl(h) : 0;
}

int xsdt_errno(xsdt_hdl *h) { return h ? h->last_error : XSDT_ERR_BAD_STATE; }

const char *xsdt_errmsg(xsdt_hdl *h, int code) {
  if (h && code == h->last_error && code != XSDT_OK && !h->last_message.empty())
    return h->last_message.c_str();
  const char *text = xsdt::rt::status_text(code);
  return text ? text : "unknown error";
}

void xsdt_close(xsdt_hdl *h) {
  if (!h)
    return;
  xsdt::rt::guarded(
      [&] {
        if (h->state == xsdt::rt::consumer::State::kRunning)
          xsdt::rt::consumer::stop_impl(h);
      },
      [&](const char *) {
        h->keep_forever = true; // could not prove the handlers are gone
      });
  if (!h->keep_forever)
    delete h;
}

} // extern "C"
