// xsdt-bench: what a probe costs at run time on x86-64, in one run.
//
//  * An enabled probe in trap mode (libxsdt): the site's NOP is an int3, so
//    every hit is a SIGTRAP round trip through the kernel plus the runtime's
//    argument decode and the handler, next to a plain call of a noinline
//    function, which is the floor any instrumentation is measured against.
//  * A disabled probe: the 5-byte NOP, in a called function and inline in a
//    loop, next to the same code without the probe.
//
// After the table it prints the ratios of this run. It exits non-zero if
// enabling failed or if any hit was not counted or decoded wrongly, which
// is what the ctest smoke test (bench.smoke) relies on.
#include <xsdt/runtime.h>
#include <xsdt/usdt.h>

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

// The baselines must stay real calls: gcc's noipa also stops the
// interprocedural analyses that could find the body empty and drop the call
// or specialise (clone) it, and clone a probed function into two sites.
#if defined(__clang__)
#define XSDT_BENCH_OPAQUE __attribute__((noinline))
#else
#define XSDT_BENCH_OPAQUE __attribute__((noipa))
#endif

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

void fail(benchmark::State &state, const std::string &why) {
  std::fprintf(stderr, "xsdt-bench: %s\n", why.c_str());
  g_failed = true;
  state.SkipWithError(why.c_str());
}

// Enables `pattern` for the lifetime of one benchmark run.
class Enabled {
public:
  Enabled(benchmark::State &state, const char *pattern) : pattern_(pattern) {
    xsdt_error err{};
    int n = xsdt_enable(pattern, count_hit, nullptr, &err);
    if (n != 1) {
      fail(state, std::string("xsdt_enable(") + pattern +
                      ") = " + std::to_string(n) + ", expected 1 site: " +
                      xsdt_status_name(err.code) + ": " + err.message);
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

void BM_trap_hit(benchmark::State &state) {
  Enabled enabled(state, "xsdt_bench:hit");
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
BENCHMARK(BM_trap_hit);

// Six register arguments: how much of a hit is decoding.
void BM_trap_hit_6args(benchmark::State &state) {
  Enabled enabled(state, "xsdt_bench:hit6");
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
BENCHMARK(BM_trap_hit_6args);

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

// Prints the table as usual and keeps each benchmark's CPU time per
// iteration (ns; the median when --benchmark_repetitions asks for several)
// for the ratios. CPU rather than wall time: the thread's CPU time includes
// the kernel's work for the trap and signal delivery, but not the time other
// processes on a busy machine take from it.
class RatioReporter : public benchmark::ConsoleReporter {
public:
  // A reporter passed in does not see --benchmark_color; colour only for a
  // terminal keeps ctest logs and redirected output plain.
  RatioReporter()
      : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs) {
      if (run.error_occurred)
        continue;
      const std::string &name = run.run_name.function_name;
      bool median =
          run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (median || (run.run_type == Run::RT_Iteration && !medians_[name])) {
        ns_[name] = run.GetAdjustedCPUTime() *
                    benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
                    benchmark::GetTimeUnitMultiplier(run.time_unit);
        medians_[name] = median;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void print_ratio(const char *what, const char *slow, const char *fast) {
    auto s = ns_.find(slow), f = ns_.find(fast);
    if (s == ns_.end() || f == ns_.end() || f->second <= 0)
      return;
    std::printf("  %-34s %9.2fx  (%.2f ns vs %.2f ns)\n", what,
                s->second / f->second, s->second, f->second);
  }

private:
  std::map<std::string, double> ns_;
  std::map<std::string, bool> medians_;
};

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;
  RatioReporter reporter;
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
  std::printf("xsdt-bench: %llu trap hits counted and decoded%s\n",
              static_cast<unsigned long long>(g_hits.load()),
              g_failed ? "; FAILED (see above)" : "");
  return g_failed ? 1 : 0;
}
