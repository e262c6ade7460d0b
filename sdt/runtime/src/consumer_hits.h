// Private to libxsdt: the consumer's hit path, the handlers that
// xsdt_go() passes to xsdt_sdt_enable() and xsdt_enable(). Declared apart
// from the session so that everything a hit runs stays in one translation
// unit (consumer_hits.cpp), where it can be inlined and kept
// async-signal-safe.
#ifndef XSDT_RUNTIME_CONSUMER_HITS_H
#define XSDT_RUNTIME_CONSUMER_HITS_H

#include "xsdt/runtime.h"
#include "xsdt/sdt-runtime.h"

#include <cstdint>

namespace xsdt::rt::consumer {

// The xsdt_sdt_handler of every SDT probe entry: `user` is its ProbeEntry.
void on_sdt_hit(const xsdt_sdt_probe_info *info, const std::uint64_t *args,
                void *user);

// The xsdt_probe_handler of every USDT enable (signal context): `user` is
// the session's UsdtGate.
void on_usdt_hit(const xsdt_probe_info *info, int argc, const xsdt_arg *args,
                 void *user);

// A new session number for xsdt_hdl::session: from 1, never reused, so a
// thread's cached buffer of an earlier session never matches.
std::uint64_t next_session() noexcept;

// For pthread_atfork: the child of fork() is one thread with a new tid but
// the forking thread's TLS.
void forget_tid_after_fork();

} // namespace xsdt::rt::consumer

#endif // XSDT_RUNTIME_CONSUMER_HITS_H
