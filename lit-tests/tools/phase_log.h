// The phase log of a conformance cell: one line per build or run that a
// test's tools did, which ci/matrix.py sums into the cell's build, run and
// check phases and attributes to the test that owns the path.
//
//   <phase>\t<seconds>\t<outcome>\t<path>
//
// phase is "build" or "run"; outcome says what the time bought ("compiled",
// "cached", "ran", "replayed"); path is the output (build) or the program
// (run). Lines are appended with one write(2) on an O_APPEND descriptor, so
// concurrent lit workers never interleave within a line.
#pragma once

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <string_view>

namespace lit_tools {

inline double monotonic_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Best effort: timing must never fail a test.
inline void append_phase(const std::string &log_path, std::string_view phase,
                         double seconds, std::string_view outcome,
                         std::string_view path) {
  if (log_path.empty())
    return;
  char number[32];
  snprintf(number, sizeof number, "%.4f", seconds);
  std::string line;
  line.append(phase).append("\t").append(number).append("\t");
  line.append(outcome).append("\t").append(path).append("\n");
  int fd =
      open(log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  ssize_t ignored = write(fd, line.data(), line.size());
  (void)ignored;
  close(fd);
}

} // namespace lit_tools
