// xsdt-bench: what a probe costs at run time on x86-64, in one run.
//
//  * An enabled USDT probe in trap mode (libxsdt): the site's NOP is an
//    int3, so every hit is a SIGTRAP round trip through the kernel plus the
//    runtime's argument decode and the handler, next to a plain call of a
//    noinline function, which is the floor any instrumentation is measured
//    against.
//  * A disabled probe: the 5-byte NOP, in a called function and inline in a
//    loop, next to the same code without the probe.
//  * SDT(9) jump sites (<xsdt/sdt.h>): the same site enabled in jump mode
//    (the NOP becomes a jmp to the out-of-line block, which calls
//    xsdt_sdt_fire and the handler) and in trap mode (an int3 whose SIGTRAP
//    handler resumes at that block), a disabled site against the same
//    function without it, and the time to enable and disable the 100 000
//    generated sites of gen_sites.py with the patcher's counters.
//
// After the table it prints the ratios of this run. It exits non-zero if
// enabling failed or if any hit was lost, counted twice or carried a wrong
// value, which is what the ctest smoke test (bench.smoke) relies on.
#include <xsdt/runtime.h>
#include <xsdt/sdt-runtime.h>
#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#include <benchmark/benchmark.h>

#include "median_reporter.h"
#include "preserving_site.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "opaque.h"

// SDT(9) probes of this program. Their ids are xsdt_bench:xsdt-bench:F:N
// (an empty module is the object's file name).
SDT_PROVIDER_DEFINE(xsdt_bench);
SDT_PROBE_DEFINE1(xsdt_bench, , call, idle, "long");
SDT_PROBE_DEFINE1(xsdt_bench, , call, idle_last, "long");
SDT_PROBE_DEFINE1(xsdt_bench, , call, hit, "long");
SDT_PROBE_DEFINE7(xsdt_bench, , call, hit7, "long", "long", "long", "long",
                  "long", "long", "long");
SDT_PROBE_DEFINE1(xsdt_bench, , loop, idle, "long");

// The generated sites (gen_sites.py, compiled as C): one probe per
// function, all of provider xsdt_bench_many.
extern "C" {
extern const unsigned xsdt_bench_many_probes;
extern const unsigned xsdt_bench_many_sites_per_probe;
extern void (*const xsdt_bench_many_functions[])(void);
}

namespace {

// Written in signal context: lock-free atomics are async-signal-safe.
std::atomic<std::uint64_t> g_hits{0};
std::atomic<std::uint64_t> g_arg_sum{0};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

bool g_failed = false;

void count_hit(const xsdt_probe_info *, int argc, const xsdt_arg *args,
               void *) {
  g_hits.fetch_add(1, std::memory_order_relaxed);
  std::uint64_t sum = 0;
  for (int i = 0; i < argc; ++i)
    sum += args[i].bits;
  g_arg_sum.fetch_add(sum, std::memory_order_relaxed);
}

// The empty asm with x in a register mirrors what the probe's asm does with
// its operand, so a probed and an unprobed body differ only by the site.
XSDT_BENCH_OPAQUE void plain_call(long x) {
  __asm__ __volatile__("" : : "r"(x) : "memory");
}

XSDT_BENCH_OPAQUE void disabled_call(long x) {
  XSDT_PROBE(xsdt_bench, idle, x);
  __asm__ __volatile__("" : : : "memory");
}

XSDT_BENCH_OPAQUE void traced_call(long x) {
  XSDT_PROBE(xsdt_bench, hit, x);
  __asm__ __volatile__("" : : : "memory");
}

XSDT_BENCH_OPAQUE void traced_call6(long a, long b, long c, long d, long e,
                                    long f) {
  XSDT_PROBE(xsdt_bench, hit6, a, b, c, d, e, f);
  __asm__ __volatile__("" : : : "memory");
}

// The same function as plain_call with an SDT site in front: x is used after
// the site, as in most probed code, so what the out-of-line call does to the
// prologue is part of the disabled cost measured here.
XSDT_BENCH_OPAQUE void sdt_disabled_call(long x) {
  SDT_PROBE1(xsdt_bench, , call, idle, x);
  __asm__ __volatile__("" : : "r"(x) : "memory");
}

// The shape of disabled_call (the USDT site): nothing needs x after the
// site, so nothing must survive the out-of-line call and the hot path is
// the NOP and the return.
XSDT_BENCH_OPAQUE void sdt_disabled_call_last(long x) {
  SDT_PROBE1(xsdt_bench, , call, idle_last, x);
  __asm__ __volatile__("" : : : "memory");
}

// The site BM_sdt_hit/jump and BM_sdt_hit/trap enable, one way each.
XSDT_BENCH_OPAQUE void sdt_traced_call(long x) {
  SDT_PROBE1(xsdt_bench, , call, hit, x);
  __asm__ __volatile__("" : : "r"(x) : "memory");
}

// Seven arguments: the out-of-line call then passes two of its eight on the
// stack (x86-64 has six argument registers).
XSDT_BENCH_OPAQUE void plain_call7(long a, long b, long c, long d, long e,
                                   long f, long g) {
  __asm__ __volatile__(""
                       :
                       : "r"(a), "r"(b), "r"(c), "r"(d), "r"(e), "r"(f), "r"(g)
                       : "memory");
}

XSDT_BENCH_OPAQUE void sdt_traced_call7(long a, long b, long c, long d, long e,
                                        long f, long g) {
  SDT_PROBE7(xsdt_bench, , call, hit7, a, b, c, d, e, f, g);
  __asm__ __volatile__(""
                       :
                       : "r"(a), "r"(b), "r"(c), "r"(d), "r"(e), "r"(f), "r"(g)
                       : "memory");
}

void fail(benchmark::State &state, const std::string &why) {
  std::fprintf(stderr, "xsdt-bench: %s\n", why.c_str());
  g_failed = true;
  state.SkipWithError(why.c_str());
}

// Enables `pattern` for the lifetime of one benchmark run.
class Enabled {
public:
  // `jump`: xsdt_enable_jump (USDT jump mode where the arch has it).
  Enabled(benchmark::State &state, const char *pattern, bool jump = false)
      : pattern_(pattern) {
    xsdt_error err{};
    int n = (jump ? xsdt_enable_jump : xsdt_enable)(pattern, count_hit, nullptr,
                                                    &err);
    if (n != 1) {
      fail(state, std::string(jump ? "xsdt_enable_jump(" : "xsdt_enable(") +
                      pattern + ") = " + std::to_string(n) +
                      ", expected 1 site: " + xsdt_status_name(err.code) +
                      ": " + err.message);
      return;
    }
    ok_ = true;
  }
  ~Enabled() {
    xsdt_error err{};
    if (ok_ && xsdt_disable(pattern_, &err) != 1) {
      std::fprintf(stderr, "xsdt-bench: xsdt_disable(%s): %s: %s\n", pattern_,
                   xsdt_status_name(err.code), err.message);
      g_failed = true;
    }
  }
  Enabled(const Enabled &) = delete;
  Enabled &operator=(const Enabled &) = delete;
  bool ok() const { return ok_; }

private:
  const char *pattern_;
  bool ok_ = false;
};

// Every iteration must have reached the handler with the values passed.
void check_hits(benchmark::State &state, std::uint64_t hits_before,
                std::uint64_t sum_before, std::uint64_t expected_sum) {
  std::uint64_t hits = g_hits.load() - hits_before;
  std::uint64_t sum = g_arg_sum.load() - sum_before;
  auto iterations = static_cast<std::uint64_t>(state.iterations());
  if (hits != iterations)
    fail(state, std::to_string(hits) + " hits counted for " +
                    std::to_string(iterations) + " iterations");
  else if (sum != expected_sum)
    fail(state, "decoded arguments sum to " + std::to_string(sum) +
                    ", expected " + std::to_string(expected_sum));
  state.counters["hits"] = static_cast<double>(hits);
}

void BM_plain_call(benchmark::State &state) {
  long i = 0;
  for (auto _ : state)
    plain_call(i++);
}
BENCHMARK(BM_plain_call);

void BM_disabled_probe_call(benchmark::State &state) {
  long i = 0;
  for (auto _ : state)
    disabled_call(i++);
}
BENCHMARK(BM_disabled_probe_call);

// A USDT hit, trapped (false) or in jump mode (true).
void BM_usdt_hit(benchmark::State &state, bool jump) {
  if (jump && !xsdt_usdt_jumps())
    return fail(state, "no USDT jump mode on this arch");
  Enabled enabled(state, "xsdt_bench:hit", jump);
  if (!enabled.ok())
    return;
  std::uint64_t hits = g_hits.load(), sum = g_arg_sum.load(), expected = 0;
  long i = 0;
  for (auto _ : state) {
    traced_call(i);
    expected += static_cast<std::uint64_t>(i++);
  }
  check_hits(state, hits, sum, expected);
}
BENCHMARK_CAPTURE(BM_usdt_hit, trap, false);
BENCHMARK_CAPTURE(BM_usdt_hit, jump, true);

// Six register arguments: how much of a hit is decoding.
void BM_usdt_hit_6args(benchmark::State &state, bool jump) {
  if (jump && !xsdt_usdt_jumps())
    return fail(state, "no USDT jump mode on this arch");
  Enabled enabled(state, "xsdt_bench:hit6", jump);
  if (!enabled.ok())
    return;
  std::uint64_t hits = g_hits.load(), sum = g_arg_sum.load(), expected = 0;
  long i = 0;
  for (auto _ : state) {
    traced_call6(i, i + 1, i + 2, i + 3, i + 4, i + 5);
    expected += 6 * static_cast<std::uint64_t>(i) + 15;
    ++i;
  }
  check_hits(state, hits, sum, expected);
}
BENCHMARK_CAPTURE(BM_usdt_hit_6args, trap, false);
BENCHMARK_CAPTURE(BM_usdt_hit_6args, jump, true);

// Inline in the loop: the NOP against the same loop without it.
void BM_inline_no_probe(benchmark::State &state) {
  long i = 0;
  for (auto _ : state) {
    __asm__ __volatile__("" : : "r"(i));
    ++i;
  }
}
BENCHMARK(BM_inline_no_probe);

void BM_inline_disabled_probe(benchmark::State &state) {
  long i = 0;
  for (auto _ : state) {
    XSDT_PROBE(xsdt_bench, inline_idle, i);
    ++i;
  }
}
BENCHMARK(BM_inline_disabled_probe);

// ---- SDT(9) jump sites
// -------------------------------------------------------

void BM_sdt_disabled_call(benchmark::State &state) {
  long i = 0;
  for (auto _ : state)
    sdt_disabled_call(i++);
}
BENCHMARK(BM_sdt_disabled_call);

void BM_sdt_disabled_call_last(benchmark::State &state) {
  long i = 0;
  for (auto _ : state)
    sdt_disabled_call_last(i++);
}
BENCHMARK(BM_sdt_disabled_call_last);

// Inline in the loop, the counterpart of BM_inline_no_probe: the same empty
// asm on i, plus the site.
void BM_inline_sdt_disabled(benchmark::State &state) {
  long i = 0;
  for (auto _ : state) {
    SDT_PROBE1(xsdt_bench, , loop, idle, i);
    __asm__ __volatile__("" : : "r"(i));
    ++i;
  }
}
BENCHMARK(BM_inline_sdt_disabled);

void BM_plain_call7(benchmark::State &state) {
  long i = 0;
  for (auto _ : state) {
    plain_call7(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6);
    ++i;
  }
}
BENCHMARK(BM_plain_call7);

// What an SDT handler saw. Hits of these probes come only from the
// benchmark thread, and handlers run in normal context in both modes, so
// plain loads and stores do: the handlers stay the trivial counters they are
// meant to be (no locked read-modify-write on the hit path).
struct SdtTally {
  const xsdt_sdt_probe *probe = nullptr; // the probe every hit must name
  std::uint64_t hits = 0;
  std::uint64_t sum = 0;         // of the arguments the probe passes
  std::uint64_t wrong_probe = 0; // hits that named another probe
};

// A counter that also adds up the one argument, so that bench.smoke sees a
// wrong value; no more, as the handler is part of every hit's time.
void sdt_count_hit1(const xsdt_sdt_probe_info *probe, const std::uint64_t *args,
                    void *user) {
  auto *tally = static_cast<SdtTally *>(user);
  ++tally->hits;
  tally->sum += args[0];
  if (probe->probe != tally->probe)
    ++tally->wrong_probe;
}

// The same for seven arguments; the unused ones of a 1-argument probe must
// be 0, which the sum checks too.
void sdt_count_hit7(const xsdt_sdt_probe_info *probe, const std::uint64_t *args,
                    void *user) {
  auto *tally = static_cast<SdtTally *>(user);
  ++tally->hits;
  std::uint64_t sum = 0;
  for (int i = 0; i < XSDT_SDT_MAX_ARGS; ++i)
    sum += args[i];
  tally->sum += sum;
  if (probe->probe != tally->probe)
    ++tally->wrong_probe;
}

// For the generated sites: any of their probes, no argument (SDT_PROBE0).
void sdt_count_many(const xsdt_sdt_probe_info *probe, const std::uint64_t *args,
                    void *user) {
  auto *tally = static_cast<SdtTally *>(user);
  ++tally->hits;
  for (int i = 0; i < XSDT_SDT_MAX_ARGS; ++i)
    tally->sum += args[i];
  if (std::string_view(probe->provider) != "xsdt_bench_many")
    ++tally->wrong_probe;
}

// The least a hit can cost with this handler API: a plain call of a
// noinline function that passes the same argument to the same handler
// through a pointer, as xsdt_sdt_fire does, without the jump, the
// out-of-line block or the runtime's bookkeeping.
xsdt_sdt_handler volatile g_direct_handler = sdt_count_hit1;
XSDT_BENCH_OPAQUE void direct_handler_call(const xsdt_sdt_probe_info *info,
                                           SdtTally *tally, long x) {
  const std::uint64_t args[XSDT_SDT_MAX_ARGS] = {static_cast<std::uint64_t>(x)};
  g_direct_handler(info, args, tally);
}

const char *mode_name(xsdt_mode mode) {
  return mode == XSDT_MODE_JUMP ? "jump" : "trap";
}

// Enables the SDT probes matching `pattern` in `mode` for one benchmark run.
class SdtEnabled {
public:
  SdtEnabled(benchmark::State &state, const char *pattern, xsdt_mode mode,
             xsdt_sdt_handler handler, SdtTally *tally, int expected_probes = 1)
      : pattern_(pattern) {
    xsdt_error err{};
    int n = xsdt_sdt_enable(pattern, mode, handler, tally, &err);
    if (n < 0) {
      fail(state, std::string("xsdt_sdt_enable(") + pattern + ", " +
                      mode_name(mode) + "): " + xsdt_status_name(err.code) +
                      ": " + err.message);
      return;
    }
    enabled_ = true;
    if (n != expected_probes) {
      fail(state, std::string("xsdt_sdt_enable(") + pattern + ") enabled " +
                      std::to_string(n) + " probes, expected " +
                      std::to_string(expected_probes));
      return;
    }
    ok_ = true;
  }
  ~SdtEnabled() {
    xsdt_error err{};
    if (enabled_ && xsdt_sdt_disable(pattern_, &err) < 0) {
      std::fprintf(stderr, "xsdt-bench: xsdt_sdt_disable(%s): %s: %s\n",
                   pattern_, xsdt_status_name(err.code), err.message);
      g_failed = true;
    }
  }
  SdtEnabled(const SdtEnabled &) = delete;
  SdtEnabled &operator=(const SdtEnabled &) = delete;
  // False when enabling failed: the run is then skipped with the error.
  bool ok() const { return ok_; }

private:
  const char *pattern_;
  bool enabled_ = false; // something to disable
  bool ok_ = false;
};

void check_sdt_hits(benchmark::State &state, const SdtTally &tally,
                    std::uint64_t expected_sum) {
  auto iterations = static_cast<std::uint64_t>(state.iterations());
  if (tally.hits != iterations)
    fail(state, std::to_string(tally.hits) + " SDT hits counted for " +
                    std::to_string(iterations) + " iterations");
  else if (tally.wrong_probe)
    fail(state,
         std::to_string(tally.wrong_probe) + " SDT hits named the wrong probe");
  else if (tally.sum != expected_sum)
    fail(state, "SDT arguments sum to " + std::to_string(tally.sum) +
                    ", expected " + std::to_string(expected_sum));
  state.counters["hits"] = static_cast<double>(tally.hits);
}

// One SDT site with one argument, enabled in `mode`, hit by `call`.
void run_sdt_hit(benchmark::State &state, xsdt_mode mode,
                 const xsdt_sdt_probe *probe, const char *pattern,
                 void (*call)(long)) {
  SdtTally tally;
  tally.probe = probe;
  SdtEnabled enabled(state, pattern, mode, sdt_count_hit1, &tally);
  if (!enabled.ok())
    return;
  std::uint64_t expected = 0;
  long i = 0;
  for (auto _ : state) {
    call(i);
    expected += static_cast<std::uint64_t>(i++);
  }
  check_sdt_hits(state, tally, expected);
}

// One SDT site, enabled in jump mode or in trap mode: the difference is the
// way into the out-of-line block (a jmp, or int3 + SIGTRAP + sigreturn).
void BM_sdt_hit(benchmark::State &state, xsdt_mode mode) {
  run_sdt_hit(state, mode, &XSDT_SDT_PROBE_SYM_(xsdt_bench, , call, hit),
              "xsdt_bench::call:hit", sdt_traced_call);
}
BENCHMARK_CAPTURE(BM_sdt_hit, jump, XSDT_MODE_JUMP);
BENCHMARK_CAPTURE(BM_sdt_hit, trap, XSDT_MODE_TRAP);

// The same site built with the opt-in register-preserving call
// (preserving_site.cpp): what its saves add to an enabled hit.
void BM_sdt_hit_preserving(benchmark::State &state) {
  run_sdt_hit(state, XSDT_MODE_JUMP,
              &XSDT_SDT_PROBE_SYM_(xsdt_bench, , call, hit_preserving),
              "xsdt_bench::call:hit_preserving", sdt_traced_call_preserving);
}
BENCHMARK(BM_sdt_hit_preserving);

void BM_sdt_handler_direct(benchmark::State &state) {
  xsdt_sdt_probe_info info{};
  SdtTally tally;
  info.probe = tally.probe = &XSDT_SDT_PROBE_SYM_(xsdt_bench, , call, hit);
  std::uint64_t expected = 0;
  long i = 0;
  for (auto _ : state) {
    direct_handler_call(&info, &tally, i);
    expected += static_cast<std::uint64_t>(i++);
  }
  check_sdt_hits(state, tally, expected);
}
BENCHMARK(BM_sdt_handler_direct);

void BM_sdt_hit7(benchmark::State &state, xsdt_mode mode) {
  SdtTally tally;
  tally.probe = &XSDT_SDT_PROBE_SYM_(xsdt_bench, , call, hit7);
  SdtEnabled enabled(state, "xsdt_bench::call:hit7", mode, sdt_count_hit7,
                     &tally);
  if (!enabled.ok())
    return;
  std::uint64_t expected = 0;
  long i = 0;
  for (auto _ : state) {
    sdt_traced_call7(i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6);
    expected += 7 * static_cast<std::uint64_t>(i) + 21;
    ++i;
  }
  check_sdt_hits(state, tally, expected);
}
BENCHMARK_CAPTURE(BM_sdt_hit7, jump, XSDT_MODE_JUMP);
BENCHMARK_CAPTURE(BM_sdt_hit7, trap, XSDT_MODE_TRAP);

// ---- Enabling and disabling the generated sites ----------------------------

constexpr const char *kManyPattern = "xsdt_bench_many:::";

std::uint64_t many_sites() {
  return std::uint64_t{xsdt_bench_many_probes} *
         xsdt_bench_many_sites_per_probe;
}

void call_many() {
  for (unsigned i = 0; i < xsdt_bench_many_probes; ++i)
    xsdt_bench_many_functions[i]();
}

void count_many_site(const xsdt_sdt_site_info *site, void *user) {
  if (std::string(site->probe->provider) == "xsdt_bench_many")
    ++*static_cast<std::uint64_t *>(user);
}

// Once per process: every generated site is a valid record, enabling in
// `mode` reaches all of them (one hit per site per call of every function),
// and disabling silences all of them.
bool verify_many(benchmark::State &state, xsdt_mode mode) {
  static bool verified[3] = {};
  if (verified[mode])
    return true;
  xsdt_error err{};
  std::uint64_t listed = 0;
  if (xsdt_sdt_list_sites(count_many_site, &listed, &err) < 0) {
    fail(state, std::string("xsdt_sdt_list_sites: ") + err.message);
    return false;
  }
  if (listed != many_sites()) {
    fail(state, std::to_string(listed) + " valid xsdt_bench_many sites, " +
                    std::to_string(many_sites()) + " generated");
    return false;
  }
  SdtTally tally;
  {
    SdtEnabled enabled(state, kManyPattern, mode, sdt_count_many, &tally,
                       static_cast<int>(xsdt_bench_many_probes));
    if (!enabled.ok())
      return false;
    call_many();
  }
  if (tally.hits != many_sites()) {
    fail(state, std::string(mode_name(mode)) +
                    " mode: " + std::to_string(tally.hits) + " hits from " +
                    std::to_string(many_sites()) + " enabled sites");
    return false;
  }
  call_many();
  if (tally.hits != many_sites()) {
    fail(state, std::to_string(tally.hits - many_sites()) +
                    " hits after xsdt_sdt_disable");
    return false;
  }
  if (tally.sum || tally.wrong_probe) {
    fail(state, "generated sites: hits of another provider or with "
                "non-zero arguments");
    return false;
  }
  verified[mode] = true;
  return true;
}

// Patcher counters of the timed calls only, per iteration.
struct PatchDelta {
  xsdt_patch_stats sum{};
  void add(const xsdt_patch_stats &before, const xsdt_patch_stats &after) {
    sum.sites_written += after.sites_written - before.sites_written;
    sum.mprotect_calls += after.mprotect_calls - before.mprotect_calls;
    sum.icache_flushes += after.icache_flushes - before.icache_flushes;
    sum.serializations += after.serializations - before.serializations;
  }
  void report(benchmark::State &state) const {
    auto per = [&](std::uint64_t v) {
      return benchmark::Counter(static_cast<double>(v),
                                benchmark::Counter::kAvgIterations);
    };
    state.counters["sites"] = per(sum.sites_written);
    state.counters["mprotect"] = per(sum.mprotect_calls);
    state.counters["flush"] = per(sum.icache_flushes);
    state.counters["serialize"] = per(sum.serializations);
  }
};

bool toggle(benchmark::State &state, const char *pattern, int probes,
            bool enable, xsdt_mode mode, SdtTally *tally) {
  xsdt_error err{};
  int n = enable ? xsdt_sdt_enable(pattern, mode, sdt_count_many, tally, &err)
                 : xsdt_sdt_disable(pattern, &err);
  if (n != probes) {
    fail(state, std::string(enable ? "xsdt_sdt_enable" : "xsdt_sdt_disable") +
                    "(" + pattern + ", " + mode_name(mode) + ") = " +
                    std::to_string(n) + ", expected " + std::to_string(probes) +
                    ": " + xsdt_status_name(err.code) + ": " + err.message);
    return false;
  }
  return true;
}

// Times xsdt_sdt_enable (timed_enable) or xsdt_sdt_disable of the probes
// matching pattern; the other call of each pair runs with the clock paused.
void toggle_sites(benchmark::State &state, const char *pattern, int probes,
                  xsdt_mode mode, bool timed_enable) {
  if (!verify_many(state, mode))
    return;
  SdtTally tally;
  PatchDelta delta;
  xsdt_patch_stats before{}, after{};
  for (auto _ : state) {
    if (!timed_enable) {
      state.PauseTiming();
      if (!toggle(state, pattern, probes, true, mode, &tally))
        break;
      state.ResumeTiming();
    }
    xsdt_get_patch_stats(&before);
    if (!toggle(state, pattern, probes, timed_enable, mode, &tally))
      break;
    xsdt_get_patch_stats(&after);
    delta.add(before, after);
    if (timed_enable) {
      state.PauseTiming();
      if (!toggle(state, pattern, probes, false, mode, &tally))
        break;
      state.ResumeTiming();
    }
  }
  if (tally.hits)
    fail(state, std::to_string(tally.hits) +
                    " hits while toggling (no generated function ran)");
  delta.report(state);
}

// All the generated sites.
void BM_sdt_toggle_many(benchmark::State &state, xsdt_mode mode,
                        bool timed_enable) {
  toggle_sites(state, kManyPattern, static_cast<int>(xsdt_bench_many_probes),
               mode, timed_enable);
}
BENCHMARK_CAPTURE(BM_sdt_toggle_many, enable_jump, XSDT_MODE_JUMP, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_many, disable_jump, XSDT_MODE_JUMP, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_many, enable_trap, XSDT_MODE_TRAP, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_many, disable_trap, XSDT_MODE_TRAP, false)
    ->Unit(benchmark::kMillisecond);

// Some of them (jump mode), for how the time grows with the number of
// probes and sites: f0 (1 probe), f0..f9 (10), f10..f99 (90).
void BM_sdt_toggle_part(benchmark::State &state, const char *pattern,
                        int probes, bool timed_enable) {
  if (xsdt_bench_many_probes < 100) {
    state.SkipWithError("too few generated probes (XSDT_BENCH_MANY_PROBES)");
    return;
  }
  toggle_sites(state, pattern, probes, XSDT_MODE_JUMP, timed_enable);
}
BENCHMARK_CAPTURE(BM_sdt_toggle_part, enable_1, "xsdt_bench_many::f0:site", 1,
                  true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_part, enable_10, "xsdt_bench_many::f[0-9]:site",
                  10, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_part, enable_90,
                  "xsdt_bench_many::f[1-9][0-9]:site", 90, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_sdt_toggle_part, disable_90,
                  "xsdt_bench_many::f[1-9][0-9]:site", 90, false)
    ->Unit(benchmark::kMillisecond);

// A toggle benchmark: wall and CPU time per call, and the patcher's
// counters per call.
void print_toggle(const xsdt::bench::MedianReporter &r, const char *what,
                  const char *name) {
  if (r.cpu_ns(name) < 0)
    return;
  std::printf("  %-20s %8.2f ms wall %8.2f ms CPU  (%.0f sites written, "
              "%.0f mprotect, %.0f icache flushes, %.0f serializations)\n",
              what, r.real_ns(name) / 1e6, r.cpu_ns(name) / 1e6,
              r.counter(name, "sites"), r.counter(name, "mprotect"),
              r.counter(name, "flush"), r.counter(name, "serialize"));
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;
  // CPU time for the ratios (none of these runs asks for wall time): the
  // thread's CPU time includes the kernel's work for the trap and signal
  // delivery, but not the time other processes on a busy machine take.
  xsdt::bench::MedianReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  std::printf("\nRatios in this run (CPU time per operation):\n");
  reporter.print_ratio("trap-mode hit / plain call", "BM_trap_hit",
                       "BM_plain_call");
  reporter.print_ratio("trap-mode hit, 6 args / plain call",
                       "BM_trap_hit_6args", "BM_plain_call");
  reporter.print_ratio("disabled probe call / plain call",
                       "BM_disabled_probe_call", "BM_plain_call");
  reporter.print_ratio("inline disabled probe / no probe",
                       "BM_inline_disabled_probe", "BM_inline_no_probe");
  std::printf("SDT(9) jump sites (goals: jump hit <= 1.3x direct handler "
              "call, trap hit >= 100x jump hit):\n");
  reporter.print_ratio("SDT jump hit / plain call", "BM_sdt_hit/jump",
                       "BM_plain_call");
  reporter.print_ratio("SDT trap hit / SDT jump hit", "BM_sdt_hit/trap",
                       "BM_sdt_hit/jump");
  reporter.print_ratio("SDT trap hit / plain call", "BM_sdt_hit/trap",
                       "BM_plain_call");
  reporter.print_ratio("SDT jump hit / direct handler call", "BM_sdt_hit/jump",
                       "BM_sdt_handler_direct");
  reporter.print_ratio("SDT jump hit, preserving call / direct handler call",
                       "BM_sdt_hit_preserving", "BM_sdt_handler_direct");
  reporter.print_ratio("SDT jump hit, 7 args / plain call, 7",
                       "BM_sdt_hit7/jump", "BM_plain_call7");
  reporter.print_ratio("SDT trap hit, 7 args / jump hit, 7", "BM_sdt_hit7/trap",
                       "BM_sdt_hit7/jump");
  reporter.print_ratio("disabled SDT call / plain call", "BM_sdt_disabled_call",
                       "BM_plain_call");
  reporter.print_ratio("disabled SDT call, x dead / plain call",
                       "BM_sdt_disabled_call_last", "BM_plain_call");
  reporter.print_ratio("inline disabled SDT site / no probe",
                       "BM_inline_sdt_disabled", "BM_inline_no_probe");
  std::printf("Toggling %llu SDT sites of %u probes, per call (goal: <= 5 "
              "ms CPU):\n",
              static_cast<unsigned long long>(many_sites()),
              xsdt_bench_many_probes);
  print_toggle(reporter, "enable, jump mode", "BM_sdt_toggle_many/enable_jump");
  print_toggle(reporter, "disable, jump mode",
               "BM_sdt_toggle_many/disable_jump");
  print_toggle(reporter, "enable, trap mode", "BM_sdt_toggle_many/enable_trap");
  print_toggle(reporter, "disable, trap mode",
               "BM_sdt_toggle_many/disable_trap");
  std::printf("Part of them, jump mode:\n");
  print_toggle(reporter, "enable, 1 probe", "BM_sdt_toggle_part/enable_1");
  print_toggle(reporter, "enable, 10 probes", "BM_sdt_toggle_part/enable_10");
  print_toggle(reporter, "enable, 90 probes", "BM_sdt_toggle_part/enable_90");
  print_toggle(reporter, "disable, 90 probes", "BM_sdt_toggle_part/disable_90");
  std::printf("xsdt-bench: %llu USDT trap hits counted and decoded%s\n",
              static_cast<unsigned long long>(g_hits.load()),
              g_failed ? "; FAILED (see above)" : "");
  return g_failed ? 1 : 0;
}
