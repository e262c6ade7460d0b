// libxsdt: the one SIGTRAP handler of the process, shared by the USDT part
// (usdt.cpp) and the SDT part (sdt_enable.cpp): its installation, its
// dispatch of a trap by the trap table both write (trap_table.h), and the
// forwarding of traps that are neither's to the disposition it replaced.
// A file of its own because neither part owns the signal: each asks for
// the handler to be installed before it writes its first trap.
#include "trap.h"

#include "api_guard.h"
#include "isa.h"
#include "machdep.h"
#include "patch.h"
#include "safe_read.h"
#include "trap_table.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace xsdt::rt {
namespace {

// The dispositions the trap handler replaced: of the trap signal, and of
// the race signal where the arch has one (isa::trap_race_signal()).
struct sigaction g_previous[2];
// What foreign traps go to: g_previous, or what the program set later with
// xsdt_set_trap_forward(). A pointer swapped whole, so that a handler
// running on another thread never reads a half-written record; the records
// it replaces are kept (a program sets this once or twice).
std::atomic<const struct sigaction *> g_forward_to[2] = {&g_previous[0],
                                                         &g_previous[1]};
std::atomic<bool> g_installed{false};

void forward(int sig, siginfo_t *si, void *uc) {
  const struct sigaction &prev =
      *g_forward_to[sig == isa::trap_signal() ? 0 : 1].load(
          std::memory_order_acquire);
  if (prev.sa_flags & SA_SIGINFO) {
    if (prev.sa_sigaction) {
      prev.sa_sigaction(sig, si, uc);
      return;
    }
  } else if (prev.sa_handler == SIG_IGN) {
    return;
  } else if (prev.sa_handler != SIG_DFL && prev.sa_handler) {
    prev.sa_handler(sig);
    return;
  }
  // SIG_DFL: die as the trap would have killed us without the runtime.
  // The signal is blocked in this handler, so the raised one is delivered
  // with the default action as soon as the handler returns.
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  raise(sig);
}

void on_sigtrap(int sig, siginfo_t *si, void *uc) {
  int saved_errno = errno;
  std::uintptr_t site = isa::site_from_trap_pc(machdep::context_pc(uc));
  // A USDT site runs its probe's handler, then resumes past the site; an
  // SDT site resumes at its block (trap mode) or as the instruction being
  // written (see sdt_fire.cpp); a site whose trap was removed between the
  // hit and this lookup executes whatever it holds now.
  const TrapEntry entry = lookup_trap(site);
  if (!entry.resume) {
    errno = saved_errno;
    forward(sig, si, uc);
    return;
  }
  if (entry.hit)
    entry.hit(entry.data, uc);
  machdep::set_context_pc(uc, entry.resume);
  errno = saved_errno;
}

} // namespace

int install_sigtrap_handler(xsdt_error *err) {
  if (g_installed.load())
    return check_trap_handler(err);
  choose_read_mode();
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigtrap;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  const int signals[2] = {isa::trap_signal(), isa::trap_race_signal()};
  for (int signal : signals)
    if (signal)
      sigaddset(&sa.sa_mask, signal);
  for (int i = 0; i < 2; ++i) {
    if (!signals[i])
      continue;
    if (sigaction(signals[i], &sa, &g_previous[i]) != 0) {
      const int saved = errno;
      if (i == 1) // leave nothing half-installed
        sigaction(signals[0], &g_previous[0], nullptr);
      return fail(err, XSDT_ERR_SIGNAL, "sigaction(%s): %s",
                  sigabbrev_np(signals[i]), std::strerror(saved));
    }
  }
  g_installed.store(true);
  return 0;
}

int check_trap_handler(xsdt_error *err) {
  if (!g_installed.load())
    return 0;
  const int signals[2] = {isa::trap_signal(), isa::trap_race_signal()};
  for (int signal : signals) {
    if (!signal)
      continue;
    struct sigaction now;
    if (sigaction(signal, nullptr, &now) != 0)
      return fail(err, XSDT_ERR_SIGNAL, "sigaction(%s): %s",
                  sigabbrev_np(signal), std::strerror(errno));
    if (!(now.sa_flags & SA_SIGINFO) || now.sa_sigaction != on_sigtrap)
      return fail(err, XSDT_ERR_SIGNAL,
                  "the SIG%s handler of libxsdt was replaced after it was "
                  "installed: probe traps would reach the new handler; "
                  "install it with xsdt_set_trap_forward() instead",
                  sigabbrev_np(signal));
  }
  return 0;
}

// xsdt_set_trap_forward's body (may throw std::bad_alloc).
int set_trap_forward(int signo, const struct sigaction *act,
                     struct sigaction *old, xsdt_error *err) {
  std::lock_guard<std::mutex> guard(api_lock());
  const int signals[2] = {isa::trap_signal(), isa::trap_race_signal()};
  const int which = signo == signals[0]            ? 0
                    : signo && signo == signals[1] ? 1
                                                   : -1;
  if (which < 0)
    return fail(err, XSDT_ERR_SIGNAL,
                "signal %d is not one that libxsdt handles", signo);
  if (!g_installed.load()) {
    // Nothing to forward to yet: the program's own disposition.
    if (sigaction(signo, act, old) != 0)
      return fail(err, XSDT_ERR_SIGNAL, "sigaction(%s): %s",
                  sigabbrev_np(signo), std::strerror(errno));
    clear(err);
    return 0;
  }
  const struct sigaction *now =
      g_forward_to[which].load(std::memory_order_acquire);
  if (old)
    *old = *now;
  if (act)
    g_forward_to[which].store(new struct sigaction(*act),
                              std::memory_order_release);
  clear(err);
  return 0;
}

} // namespace xsdt::rt

// ---- C entry points --------------------------------------------------------

extern "C" {

int xsdt_set_trap_forward(int signo, const struct sigaction *act,
                          struct sigaction *old, xsdt_error *err) {
  return xsdt::rt::guard_error(err, "xsdt_set_trap_forward", [&] {
    return xsdt::rt::set_trap_forward(signo, act, old, err);
  });
}

int xsdt_check_trap_handler(xsdt_error *err) {
  std::lock_guard<std::mutex> guard(xsdt::rt::api_lock());
  if (xsdt::rt::check_trap_handler(err) != 0)
    return -1;
  xsdt::rt::clear(err);
  return 0;
}

} // extern "C"
