// The console reporter of both benchmarks (xsdt-bench, xsdt-bench-lttng):
// it prints Google Benchmark's table as usual and keeps, per run, the
// times and counters the ratios printed after it are computed from. Each
// run's figure is its median when repetitions ask for several, else its one
// measurement, so that every ratio compares two figures of the same run.
#ifndef XSDT_BENCH_MEDIAN_REPORTER_H
#define XSDT_BENCH_MEDIAN_REPORTER_H

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace xsdt::bench {

class MedianReporter : public benchmark::ConsoleReporter {
public:
  // A reporter passed in does not see --benchmark_color; colour only for a
  // terminal keeps ctest logs and redirected output plain.
  MedianReporter()
      : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &run : runs) {
      if (run.error_occurred)
        continue;
      // "name" or "name/threads:N": the run's name without the time type.
      std::string name = run.run_name.function_name;
      if (!run.run_name.threads.empty())
        name += "/" + run.run_name.threads;
      const bool median =
          run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      Figure &f = figures_[name];
      if (median || (run.run_type == Run::RT_Iteration && !f.median)) {
        const double to_ns =
            benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
            benchmark::GetTimeUnitMultiplier(run.time_unit);
        f.cpu_ns = run.GetAdjustedCPUTime() * to_ns;
        f.real_ns = run.GetAdjustedRealTime() * to_ns;
        f.real_time = !run.run_name.time_type.empty();
        f.counters = run.counters;
        f.median = median;
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  // Per iteration, in ns, -1 when the run is missing or failed: CPU time,
  // wall time, and the time the run measured (wall time for the runs that
  // UseRealTime, CPU time for the others).
  double cpu_ns(const std::string &name) const {
    const Figure *f = find(name);
    return f ? f->cpu_ns : -1;
  }
  double real_ns(const std::string &name) const {
    const Figure *f = find(name);
    return f ? f->real_ns : -1;
  }
  double ns(const std::string &name) const {
    const Figure *f = find(name);
    return f ? (f->real_time ? f->real_ns : f->cpu_ns) : -1;
  }
  double counter(const std::string &name, const std::string &key) const {
    const Figure *f = find(name);
    if (!f)
      return 0;
    auto it = f->counters.find(key);
    return it == f->counters.end() ? 0 : it->second.value;
  }

  // "  what   ratio  (a ns vs b ns)" with a / b of the measured times;
  // nothing when either is missing.
  void print_ratio(const std::string &what, const std::string &a,
                   const std::string &b) const {
    print_ratio_of(what, ns(a), ns(b));
  }
  static void print_ratio_of(const std::string &what, double a, double b) {
    if (a < 0 || b <= 0)
      return;
    std::printf("  %-58s %8.3f  (%.2f ns vs %.2f ns)\n", what.c_str(), a / b, a,
                b);
  }

private:
  struct Figure {
    double cpu_ns = -1, real_ns = -1;
    bool real_time = false;
    bool median = false;
    benchmark::UserCounters counters;
  };
  const Figure *find(const std::string &name) const {
    auto it = figures_.find(name);
    return it == figures_.end() ? nullptr : &it->second;
  }
  std::map<std::string, Figure> figures_;
};

} // namespace xsdt::bench

#endif // XSDT_BENCH_MEDIAN_REPORTER_H
