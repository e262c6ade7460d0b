// A private LTTng-UST tracing set-up for one benchmark run: its own
// lttng-sessiond (user space only), one recording session, torn down with
// the object. Drives the lttng(1) command line, as a user would.
#ifndef XSDT_BENCH_LTTNG_SESSION_H
#define XSDT_BENCH_LTTNG_SESSION_H

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace xsdt::bench {

class LttngSession {
public:
  // Starts lttng-sessiond --no-kernel with LTTNG_HOME in a new directory
  // and waits (up to wait_s seconds) until this process has registered the
  // tracepoint `registered` with it. Null, with *why, when it cannot.
  static std::unique_ptr<LttngSession> open(const std::string &registered,
                                            int wait_s, std::string *why);
  ~LttngSession(); // destroys a session left, stops the daemon, removes files
  LttngSession(const LttngSession &) = delete;
  LttngSession &operator=(const LttngSession &) = delete;

  // Creates a recording session for the events matching `events`, its
  // trace in a new directory, and starts it.
  bool begin(const std::string &events, std::string *why);
  // Stops the session (lttng stop waits until its data is written), reads
  // its channel's "Discarded events" statistic and destroys it. The trace
  // stays in trace_dir() until the next begin() or the end of the object.
  std::optional<std::uint64_t> end(std::string *why);
  const std::string &trace_dir() const { return trace_dir_; }

  // Runs a program with this set-up's LTTNG_HOME; its output in *out. False,
  // with *why naming the command and its output, unless it exits 0.
  bool run(const std::vector<std::string> &argv, std::string *out,
           std::string *why);

private:
  LttngSession() = default;
  std::string home_, trace_dir_, session_;
  pid_t daemon_ = -1;
  unsigned sessions_ = 0;
  bool active_ = false;
};

} // namespace xsdt::bench

#endif
