#include "lttng_session.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char **environ;

namespace xsdt::bench {
namespace {

// The environment of the spawned programs: ours with LTTNG_HOME replaced.
std::vector<std::string> environment_with_home(const std::string &home) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "LTTNG_HOME=", 11) != 0)
      env.emplace_back(*e);
  env.push_back("LTTNG_HOME=" + home);
  return env;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> p;
  for (std::string &s : strings)
    p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

std::string joined(const std::vector<std::string> &argv) {
  std::string s;
  for (const std::string &a : argv)
    s += (s.empty() ? "" : " ") + a;
  return s;
}

// Spawns argv with env, its standard output to out_fd (or /dev/null) and
// standard error to err_fd (or the same). -1 with *why on failure.
pid_t spawn(std::vector<std::string> argv, std::vector<std::string> env,
            int out_fd, int err_fd, std::string *why) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (out_fd >= 0)
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  if (err_fd >= 0)
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  pid_t pid = -1;
  std::vector<char *> args = pointers(argv), envp = pointers(env);
  const int rc =
      posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *why = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return -1;
  }
  return pid;
}

std::string file_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

bool LttngSession::run(const std::vector<std::string> &argv, std::string *out,
                       std::string *why) {
  const std::string log = home_ + "/command.out";
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    *why = log + ": " + std::strerror(errno);
    return false;
  }
  const pid_t pid = spawn(argv, environment_with_home(home_), fd, fd, why);
  ::close(fd);
  if (pid < 0)
    return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  *out = file_text(log);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return true;
  *why = "'" + joined(argv) + "' failed: " + *out;
  return false;
}

std::unique_ptr<LttngSession> LttngSession::open(const std::string &registered,
                                                 int wait_s, std::string *why) {
  std::unique_ptr<LttngSession> s(new LttngSession);
  char dir[] = "/tmp/xsdt-lttng.XXXXXX";
  if (!mkdtemp(dir)) {
    *why = std::string("mkdtemp: ") + std::strerror(errno);
    return nullptr;
  }
  s->home_ = dir;
  const std::string log = s->home_ + "/sessiond.log";
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    *why = log + ": " + std::strerror(errno);
    return nullptr;
  }
  s->daemon_ = spawn({"lttng-sessiond", "--no-kernel"},
                     environment_with_home(s->home_), fd, fd, why);
  ::close(fd);
  if (s->daemon_ < 0)
    return nullptr;

  // Ready once it lists our tracepoint: this process's lttng-ust listener
  // registers with a daemon that starts after it, within a few seconds.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(wait_s);
  std::string out, ignored;
  for (;;) {
    int status = 0;
    if (waitpid(s->daemon_, &status, WNOHANG) == s->daemon_) {
      s->daemon_ = -1;
      *why = "lttng-sessiond exited at start: " + file_text(log);
      return nullptr;
    }
    if (s->run({"lttng", "list", "--userspace"}, &out, &ignored) &&
        out.find(registered) != std::string::npos)
      return s;
    if (std::chrono::steady_clock::now() > deadline) {
      *why = "this process did not register tracepoint " + registered +
             " with lttng-sessiond within " + std::to_string(wait_s) +
             " s ('lttng list --userspace': " + out + ")";
      return nullptr;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

bool LttngSession::begin(const std::string &events, std::string *why) {
  std::error_code ignored;
  if (!trace_dir_.empty())
    std::filesystem::remove_all(trace_dir_, ignored);
  ++sessions_;
  session_ = "xsdt-bench-" + std::to_string(getpid()) + "-" +
             std::to_string(sessions_);
  trace_dir_ = home_ + "/trace-" + std::to_string(sessions_);
  std::string out;
  if (!run({"lttng", "create", session_, "--output=" + trace_dir_}, &out, why))
    return false;
  active_ = true;
  return run({"lttng", "enable-event", "--userspace", "--session=" + session_,
              events},
             &out, why) &&
         run({"lttng", "start", session_}, &out, why);
}

std::optional<std::uint64_t> LttngSession::end(std::string *why) {
  std::string out, list;
  const bool listed = run({"lttng", "stop", session_}, &out, why) &&
                      run({"lttng", "list", session_}, &list, why);
  active_ = !run({"lttng", "destroy", session_}, &out, listed ? why : &out);
  if (!listed || active_)
    return std::nullopt;
  // One "Discarded events: N" line per channel (one channel here).
  const std::string key = "Discarded events:";
  std::uint64_t total = 0;
  bool found = false;
  for (std::size_t at = list.find(key); at != std::string::npos;
       at = list.find(key, at + key.size())) {
    // lttng 2.13.9 sometimes prints the count with bit 63 set (seen:
    // 2^63 + 734452 where the trace read back was 734452 events short of
    // the calls): the count is the low 63 bits.
    total += std::strtoull(list.c_str() + at + key.size(), nullptr, 10) &
             ~(std::uint64_t{1} << 63);
    found = true;
  }
  if (!found) {
    *why = "no 'Discarded events' statistic in 'lttng list " + session_ +
           "': " + list;
    return std::nullopt;
  }
  return total;
}

LttngSession::~LttngSession() {
  std::string out, why;
  if (active_)
    run({"lttng", "destroy", session_}, &out, &why);
  if (daemon_ > 0) {
    kill(daemon_, SIGTERM);
    int status = 0;
    while (waitpid(daemon_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  std::error_code ignored;
  if (!home_.empty())
    std::filesystem::remove_all(home_, ignored);
}

} // namespace xsdt::bench
