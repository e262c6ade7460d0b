// xsdt-bench-lttng: xsdt's probes side by side with LTTng-UST, the tracer a
// user would otherwise pick for cheap always-compiled-in probes, in one run
// on one machine with the same payloads (1, 4 and 8 integers, then a
// string).
//
//  * disabled/<impl>/<n>: a call of a noinline function holding one site,
//    no tracer attached: an xsdt SDT(9) site (<xsdt/sdt.h>), an xsdt USDT
//    site with its semaphore (<xsdt/usdt.h>, XSDT_PROBE_GUARDED), an LTTng
//    tracepoint with no session enabling it; plain/<n> is the same function
//    without a site.
//  * enabled/<impl>/<n>/threads:T: the same call with the site enabled and
//    every event delivered: xsdt's consumer API (jump mode; a thread drains
//    the per-thread buffers with xsdt_work, as a tracer would) against an
//    LTTng session recording to its ring buffer (the consumer daemon writes
//    it to disk). From 1, 2 and 4 threads, wall time: the time per call is
//    the time of one event, its inverse the throughput.
//
// The benchmark starts and stops its own lttng-sessiond and session
// (lttng_session.h). After the table it prints the ratios of this run and,
// per enabled run, the calls made, the events delivered and the events
// dropped on each side. It exits non-zero when a count does not add up
// (calls = delivered + dropped) or a delivered xsdt record carries other
// values than the call passed; --verify-trace also reads each LTTng run's
// trace back (babeltrace) and checks its events the same way, so that the
// LTTng side's delivered count is counted too, not calls - discarded
// (bench.lttng.smoke).
//
// xsdt's SDT(9) probes carry at most 7 arguments (FreeBSD's SDT_PROBE7), so
// the 8-integer payload has no SDT row; the string is passed as its
// address (a DTrace consumer copies it with copyinstr), where LTTng copies
// its bytes into the event.
#include "lttng_preserving_sites.h"
#include "lttng_session.h"
#include "lttng_tp.h"
#include "median_reporter.h"

#include <xsdt/consumer.h>
#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "opaque.h"

SDT_PROVIDER_DEFINE(xsdt_sdt);
SDT_PROBE_DEFINE2(xsdt_sdt, , site, args1, "long", "char *");
SDT_PROBE_DEFINE5(xsdt_sdt, , site, args4, "long", "long", "long", "long",
                  "char *");
XSDT_SEMAPHORE(xsdt_usdt, args1);
XSDT_SEMAPHORE(xsdt_usdt, args4);
XSDT_SEMAPHORE(xsdt_usdt, args8);

namespace {

const char kPayload[] = "xsdt-bench-lttng payload";

// ---- The sites: one function per implementation and payload ------------
// Argument k of a call is a0 + k, so that a delivered event can be checked
// against the call that made it.

XSDT_BENCH_OPAQUE long plain1(long a0, const char *s) {
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long sdt1(long a0, const char *s) {
  SDT_PROBE2(xsdt_sdt, , site, args1, a0, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long usdt1(long a0, const char *s) {
  XSDT_PROBE_GUARDED(xsdt_usdt, args1, a0, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long lttng1(long a0, const char *s) {
  lttng_ust_tracepoint(xsdt_peer, args1, a0, s);
  return a0 + (s != nullptr);
}

XSDT_BENCH_OPAQUE long plain4(long a0, const char *s) {
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long sdt4(long a0, const char *s) {
  SDT_PROBE5(xsdt_sdt, , site, args4, a0, a0 + 1, a0 + 2, a0 + 3, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long usdt4(long a0, const char *s) {
  XSDT_PROBE_GUARDED(xsdt_usdt, args4, a0, a0 + 1, a0 + 2, a0 + 3, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long lttng4(long a0, const char *s) {
  lttng_ust_tracepoint(xsdt_peer, args4, a0, a0 + 1, a0 + 2, a0 + 3, s);
  return a0 + (s != nullptr);
}

XSDT_BENCH_OPAQUE long plain8(long a0, const char *s) {
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long usdt8(long a0, const char *s) {
  XSDT_PROBE_GUARDED(xsdt_usdt, args8, a0, a0 + 1, a0 + 2, a0 + 3, a0 + 4,
                     a0 + 5, a0 + 6, a0 + 7, s);
  return a0 + (s != nullptr);
}
XSDT_BENCH_OPAQUE long lttng8(long a0, const char *s) {
  lttng_ust_tracepoint(xsdt_peer, args8, a0, a0 + 1, a0 + 2, a0 + 3, a0 + 4,
                       a0 + 5, a0 + 6, a0 + 7, s);
  return a0 + (s != nullptr);
}

using Site = long (*)(long, const char *);

bool g_failed = false;

void failure(const std::string &what) {
  std::fprintf(stderr, "xsdt-bench-lttng: %s\n", what.c_str());
  g_failed = true;
}

// Calls made by the threads of the current run (added when each ends).
std::atomic<std::uint64_t> g_calls{0};

// The benchmark body: every thread calls the site with its own a0 values
// (thread index in the high bits), so events of different threads differ.
template <Site site> void BM_call(benchmark::State &state) {
  long a0 = static_cast<long>(state.thread_index()) << 40;
  for (auto _ : state)
    benchmark::DoNotOptimize(site(a0++, kPayload));
  g_calls.fetch_add(state.iterations(), std::memory_order_relaxed);
  state.SetItemsProcessed(state.iterations());
}

// ---- xsdt: the consumer API ------------------------------------------------

// One enabled run: a handle selecting one probe, and the thread that drains
// it while the benchmark runs.
struct XsdtRun {
  xsdt_hdl *handle = nullptr;
  int ints = 0; // the payload's integers: the record has ints + 1 args
  bool timestamps = true; // the consumer option: records carry the time
  std::thread drainer;
  std::atomic<bool> draining{false};
  std::uint64_t records = 0, bad = 0;
};
XsdtRun *g_xsdt = nullptr; // the run in progress

int check_record(const xsdt_record *r, void *arg) {
  XsdtRun *run = static_cast<XsdtRun *>(arg);
  ++run->records;
  bool good = r->argc == run->ints + 1 &&
              r->args[run->ints] == reinterpret_cast<std::uintptr_t>(kPayload);
  for (int k = 1; good && k < run->ints; ++k)
    good = r->args[k] == r->args[0] + k;
  // A timestamp exactly when asked for (CLOCK_MONOTONIC is never 0 here).
  good = good && (r->timestamp_ns != 0) == run->timestamps;
  if (!good && run->bad++ == 0)
    failure(std::string("a record of ") + r->probe->id +
            " does not carry the values its call passed");
  return XSDT_CONSUME_NEXT;
}

// Setup and Teardown run on one thread, around all the threads of a run.
// The xsdt sides of an enabled run: an SDT probe in jump mode recording
// timestamps (as LTTng's events always carry one) or not (the consumer
// option), and a USDT probe (trap mode, the only one USDT has; also the
// only xsdt probe with 8 integers and a string, since SDT(9) probes carry
// at most 7 arguments).
// kSdtMonotonic: timestamps read from CLOCK_MONOTONIC at every hit (the
// consumer option "clock"), where kSdt reads the arch's counter if it has
// one.
enum class XsdtSide { kSdt, kSdtNoTimestamps, kSdtMonotonic, kUsdt };

const char *xsdt_impl(XsdtSide side) {
  switch (side) {
  case XsdtSide::kSdt:
    return "xsdt-sdt";
  case XsdtSide::kSdtNoTimestamps:
    return "xsdt-sdt-nots";
  case XsdtSide::kSdtMonotonic:
    return "xsdt-sdt-monotonic";
  case XsdtSide::kUsdt:
    return "xsdt-usdt";
  }
  return "?";
}

template <int kInts, XsdtSide kSide> void xsdt_setup(const benchmark::State &) {
  g_calls = 0;
  auto *run = new XsdtRun;
  run->ints = kInts;
  run->timestamps = kSide != XsdtSide::kSdtNoTimestamps;
  int err = 0;
  run->handle = xsdt_open(XSDT_VERSION, &err);
  const bool usdt = kSide == XsdtSide::kUsdt;
  const std::string probe =
      (usdt ? "xsdt_usdt:::args" : "xsdt_sdt:::args") + std::to_string(kInts);
  // Per-thread buffers as large as one LTTng per-CPU channel (4 x 512 KiB).
  if (!run->handle ||
      xsdt_enable_probes(run->handle, probe.c_str(),
                         usdt ? XSDT_MODE_TRAP : XSDT_MODE_JUMP) != 1 ||
      xsdt_setopt(run->handle, "bufsize", "2m") != 0 ||
      xsdt_setopt(run->handle, "timestamps", run->timestamps ? "on" : "off") !=
          0 ||
      xsdt_setopt(run->handle, "clock",
                  kSide == XsdtSide::kSdtMonotonic ? "monotonic" : "auto") !=
          0 ||
      xsdt_go(run->handle) != 0) {
    failure(
        "cannot enable " + probe + ": " +
        xsdt_errmsg(run->handle, run->handle ? xsdt_errno(run->handle) : err));
    std::exit(1);
  }
  run->draining = true;
  run->drainer = std::thread([run] {
    while (run->draining.load(std::memory_order_relaxed)) {
      xsdt_work(run->handle, check_record, run);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  });
  g_xsdt = run;
}

struct Delivery {
  std::uint64_t calls = 0, delivered = 0, dropped = 0;
  bool read_back = true; // delivered counted from the records themselves
};
std::map<std::string, Delivery> g_delivery; // by benchmark name

// The name of an enabled run, as the reporter sees it.
std::string run_name(const benchmark::State &state, const char *impl,
                     int ints) {
  return std::string("enabled/") + impl + "/" + std::to_string(ints) +
         "/threads:" + std::to_string(state.threads());
}

template <int kInts, XsdtSide kSide>
void xsdt_teardown(const benchmark::State &state) {
  XsdtRun *run = g_xsdt;
  run->draining = false;
  run->drainer.join();
  if (xsdt_stop(run->handle) != 0)
    failure(std::string("xsdt_stop: ") +
            xsdt_errmsg(run->handle, xsdt_errno(run->handle)));
  while (xsdt_work(run->handle, check_record, run) == XSDT_WORKSTATUS_OKAY) {
  }
  Delivery &d = g_delivery[run_name(state, xsdt_impl(kSide), kInts)];
  d.calls += g_calls;
  d.delivered += run->records;
  d.dropped += xsdt_drops(run->handle);
  xsdt_close(run->handle);
  delete run;
  g_xsdt = nullptr;
}

// ---- LTTng: a recording session per enabled run --------------------------

std::unique_ptr<xsdt::bench::LttngSession> g_lttng;
bool g_verify = false; // --verify-trace

// Reads a trace back: the events of xsdt_peer:args<ints>, each checked to
// carry a0, a0 + 1, ... and the payload string. Their count.
std::uint64_t read_back(const std::string &dir, int ints) {
  // Its warnings (one per discarded range) would drown the results.
  const std::string command = "babeltrace " + dir + " 2>/dev/null";
  FILE *in = popen(command.c_str(), "r");
  if (!in) {
    failure("cannot run " + command);
    return 0;
  }
  const std::string event = "xsdt_peer:args" + std::to_string(ints) + ":";
  const std::string payload = std::string("s = \"") + kPayload + "\"";
  std::uint64_t events = 0, bad = 0;
  char line[1024];
  while (std::fgets(line, sizeof line, in)) {
    if (!std::strstr(line, event.c_str()))
      continue;
    ++events;
    bool good = std::strstr(line, payload.c_str()) != nullptr;
    long long a0 = 0;
    for (int k = 0; good && k < ints; ++k) {
      const std::string key = " a" + std::to_string(k) + " = ";
      const char *at = std::strstr(line, key.c_str());
      const long long v = at ? std::atoll(at + key.size()) : -1;
      if (k == 0)
        a0 = v;
      good = at && v == a0 + k;
    }
    if (!good && bad++ == 0)
      failure("an LTTng event does not carry the values its call passed: " +
              std::string(line));
  }
  if (pclose(in) != 0)
    failure(command + " failed");
  return events;
}

template <int kInts> void lttng_setup(const benchmark::State &) {
  g_calls = 0;
  std::string why;
  if (!g_lttng->begin("xsdt_peer:args" + std::to_string(kInts), &why)) {
    failure(why);
    std::exit(1);
  }
}

template <int kInts> void lttng_teardown(const benchmark::State &state) {
  std::string why;
  const std::optional<std::uint64_t> dropped = g_lttng->end(&why);
  if (!dropped) {
    failure(why);
    std::exit(1);
  }
  Delivery &d = g_delivery[run_name(state, "lttng", kInts)];
  d.calls += g_calls;
  d.dropped += *dropped;
  if (g_verify) {
    d.delivered += read_back(g_lttng->trace_dir(), kInts);
  } else {
    d.delivered += g_calls - *dropped;
    d.read_back = false;
  }
}

// ---- Registration ----------------------------------------------------------

void register_disabled(const char *name, void (*fn)(benchmark::State &)) {
  benchmark::RegisterBenchmark(name, fn);
}

template <void (*Body)(benchmark::State &)>
void register_enabled(const char *name, void (*setup)(const benchmark::State &),
                      void (*teardown)(const benchmark::State &)) {
  benchmark::RegisterBenchmark(name, Body)
      ->Setup(setup)
      ->Teardown(teardown)
      ->Threads(1)
      ->Threads(2)
      ->Threads(4)
      ->UseRealTime();
}

void register_all() {
  register_disabled("disabled/plain/1", BM_call<plain1>);
  register_disabled("disabled/xsdt-sdt/1", BM_call<sdt1>);
  register_disabled("disabled/xsdt-sdt-preserving/1", BM_call<sdt1_preserving>);
  register_disabled("disabled/xsdt-usdt/1", BM_call<usdt1>);
  register_disabled("disabled/lttng/1", BM_call<lttng1>);
  register_disabled("disabled/plain/4", BM_call<plain4>);
  register_disabled("disabled/xsdt-sdt/4", BM_call<sdt4>);
  register_disabled("disabled/xsdt-sdt-preserving/4", BM_call<sdt4_preserving>);
  register_disabled("disabled/xsdt-usdt/4", BM_call<usdt4>);
  register_disabled("disabled/lttng/4", BM_call<lttng4>);
  register_disabled("disabled/plain/8", BM_call<plain8>);
  register_disabled("disabled/xsdt-usdt/8", BM_call<usdt8>);
  register_disabled("disabled/lttng/8", BM_call<lttng8>);
  constexpr XsdtSide sdt = XsdtSide::kSdt, nots = XsdtSide::kSdtNoTimestamps,
                     mono = XsdtSide::kSdtMonotonic, usdt = XsdtSide::kUsdt;
  register_enabled<BM_call<sdt1>>("enabled/xsdt-sdt/1", xsdt_setup<1, sdt>,
                                  xsdt_teardown<1, sdt>);
  register_enabled<BM_call<sdt1>>("enabled/xsdt-sdt-nots/1",
                                  xsdt_setup<1, nots>, xsdt_teardown<1, nots>);
  register_enabled<BM_call<sdt1>>("enabled/xsdt-sdt-monotonic/1",
                                  xsdt_setup<1, mono>, xsdt_teardown<1, mono>);
  register_enabled<BM_call<usdt1>>("enabled/xsdt-usdt/1", xsdt_setup<1, usdt>,
                                   xsdt_teardown<1, usdt>);
  register_enabled<BM_call<lttng1>>("enabled/lttng/1", lttng_setup<1>,
                                    lttng_teardown<1>);
  register_enabled<BM_call<sdt4>>("enabled/xsdt-sdt/4", xsdt_setup<4, sdt>,
                                  xsdt_teardown<4, sdt>);
  register_enabled<BM_call<sdt4>>("enabled/xsdt-sdt-nots/4",
                                  xsdt_setup<4, nots>, xsdt_teardown<4, nots>);
  register_enabled<BM_call<sdt4>>("enabled/xsdt-sdt-monotonic/4",
                                  xsdt_setup<4, mono>, xsdt_teardown<4, mono>);
  register_enabled<BM_call<usdt4>>("enabled/xsdt-usdt/4", xsdt_setup<4, usdt>,
                                   xsdt_teardown<4, usdt>);
  register_enabled<BM_call<lttng4>>("enabled/lttng/4", lttng_setup<4>,
                                    lttng_teardown<4>);
  register_enabled<BM_call<usdt8>>("enabled/xsdt-usdt/8", xsdt_setup<8, usdt>,
                                   xsdt_teardown<8, usdt>);
  register_enabled<BM_call<lttng8>>("enabled/lttng/8", lttng_setup<8>,
                                    lttng_teardown<8>);
}

// ---- Results ---------------------------------------------------------------

using xsdt::bench::MedianReporter; // wall time for the enabled runs, which
                                   // UseRealTime, CPU time for the others

// The disabled cost of a site: its call minus the plain call.
void print_disabled(const MedianReporter &r, int ints) {
  const std::string n = std::to_string(ints);
  const double plain = r.ns("disabled/plain/" + n);
  for (const char *impl :
       {"xsdt-sdt", "xsdt-sdt-preserving", "xsdt-usdt", "lttng"}) {
    const double t = r.ns(std::string("disabled/") + impl + "/" + n);
    if (t < 0)
      std::printf("  %-20s %d ints + string: not measured%s\n", impl, ints,
                  std::strncmp(impl, "xsdt-sdt", 8) == 0 && ints > 6
                      ? " (SDT(9) probes carry at most 7 arguments)"
                      : "");
    else
      std::printf("  %-20s %d ints + string: %6.2f ns a call, %+6.2f ns over "
                  "the plain call\n",
                  impl, ints, t, t - plain);
  }
}

// An enabled run's wall time per event delivered (the time per call, with
// the calls whose events were dropped charged to the ones delivered), or
// -1 when it was not measured or delivered nothing.
double ns_per_delivered(const MedianReporter &r, const std::string &name) {
  const double per_call = r.ns(name);
  auto it = g_delivery.find(name);
  if (per_call < 0 || it == g_delivery.end() || it->second.delivered == 0)
    return -1;
  return per_call * static_cast<double>(it->second.calls) /
         static_cast<double>(it->second.delivered);
}

// "enabled <impl> / lttng": per call, and per event delivered (what the
// goal is about: drops differ between the two sides).
void print_enabled_ratio(const MedianReporter &r, const std::string &impl,
                         const std::string &ints, const std::string &threads) {
  const std::string a = "enabled/" + impl + "/" + ints + "/threads:" + threads;
  const std::string b = "enabled/lttng/" + ints + "/threads:" + threads;
  const std::string what = "enabled " + impl + " / lttng, " + ints + " ints, " +
                           threads + " threads";
  r.print_ratio(what + ", per call", a, b);
  MedianReporter::print_ratio_of(what + ", per event delivered",
                                 ns_per_delivered(r, a),
                                 ns_per_delivered(r, b));
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i)
    if (std::strcmp(argv[i], "--verify-trace") == 0)
      g_verify = true;
    else
      args.push_back(argv[i]);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data()))
    return 2;

  std::string why;
  g_lttng = xsdt::bench::LttngSession::open("xsdt_peer:args1", 20, &why);
  if (!g_lttng) {
    std::fprintf(stderr, "xsdt-bench-lttng: LTTng-UST cannot run here: %s\n",
                 why.c_str());
    return 1;
  }
  register_all();
  MedianReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  std::printf("\nDisabled sites (CPU time a call, this run):\n");
  for (int ints : {1, 4, 8})
    print_disabled(reporter, ints);
  std::printf("Ratios in this run (goals: enabled xsdt <= 0.1x LTTng; "
              "disabled xsdt <= 1x LTTng):\n");
  for (const char *n : {"1", "4", "8"}) {
    const std::string s = n;
    reporter.print_ratio("disabled xsdt-sdt / disabled lttng, " + s,
                         "disabled/xsdt-sdt/" + s, "disabled/lttng/" + s);
    reporter.print_ratio("disabled xsdt-sdt-preserving / disabled lttng, " + s,
                         "disabled/xsdt-sdt-preserving/" + s,
                         "disabled/lttng/" + s);
    reporter.print_ratio("disabled xsdt-usdt / disabled lttng, " + s,
                         "disabled/xsdt-usdt/" + s, "disabled/lttng/" + s);
    for (const char *impl :
         {"xsdt-sdt", "xsdt-sdt-monotonic", "xsdt-sdt-nots", "xsdt-usdt"})
      for (const char *t : {"1", "2", "4"})
        print_enabled_ratio(reporter, impl, s, t);
  }
  std::printf("Events per enabled run (calls = delivered + dropped):\n");
  for (const auto &[name, d] : g_delivery) {
    const bool adds_up = d.calls == d.delivered + d.dropped;
    std::printf("  %-32s %12llu calls %12llu delivered %10llu dropped%s%s\n",
                name.c_str(), static_cast<unsigned long long>(d.calls),
                static_cast<unsigned long long>(d.delivered),
                static_cast<unsigned long long>(d.dropped),
                d.read_back ? "" : " (delivered = calls - discarded)",
                adds_up ? "" : "  DOES NOT ADD UP");
    if (!adds_up || d.calls == 0)
      failure(name + ": the calls and the events do not add up");
  }
  g_lttng.reset();
  std::printf("xsdt-bench-lttng: %s\n", g_failed ? "FAILED (see above)" : "ok");
  return g_failed ? 1 : 0;
}
