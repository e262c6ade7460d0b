// run-once: runs a test program (through the cell's emulator) and records
// the time it took in the cell's phase log; with --memo, runs it once per
// cell for each distinct command.
//
//   run-once --log FILE [--memo DIR] [--limit SECONDS] -- COMMAND [ARGS...]
//
// Several checks read the same run of a program: run/X.test needs its exit
// status, values/X.test the value oracle's report on its output. With
// --memo the first of them runs it and records its exit status and output;
// the others replay that record instead of running the program again. The
// key is the command line, with every file it names taken by its identity
// (device, inode, size, mtime) rather than its path, the environment, and
// whether stdout and stderr are one stream: a rebuilt program, another
// argument or another environment variable runs again. A program's output
// therefore must not depend on the path it was started by or on its working
// directory, which differ between the tests that share a run (none of the
// corpus programs looks at either). Concurrent callers with one key wait for
// the first (flock), so the program runs once even when two lit workers ask
// at the same time. The memo directory belongs to one lit run of one cell
// (lit.cfg.py empties it), so a rerun of the cell runs every program again.
//
// --limit: a program still running after SECONDS is killed, and the run
// fails with status 124 and a line on stderr that says so (ci/mutate: a
// mutant that makes a test spin forever fails that test instead of
// stalling its cell).
//
// Exit status: the program's own; a program killed by a signal kills
// run-once with the same signal (without a core file), so `not --crash`
// sees the crash. 124 when it ran over --limit. 125 when run-once itself
// cannot work (bad usage, cannot start the command).
#include "phase_log.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

extern char **environ;

namespace {

constexpr int kToolFailure = 125;
constexpr int kOverLimit = 124; // as timeout(1)

struct Options {
  std::string log;
  std::string memo;
  double limit = 0; // seconds; 0: none
  std::vector<std::string> command;
};

[[noreturn]] void usage(const char *message) {
  fprintf(stderr,
          "run-once: %s\nusage: run-once --log FILE [--memo DIR] [--limit "
          "SECONDS] -- COMMAND [ARGS...]\n",
          message);
  exit(kToolFailure);
}

Options parse(int argc, char **argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if ((arg == "--log" || arg == "--memo") && i + 1 < argc) {
      (arg == "--log" ? o.log : o.memo) = argv[++i];
      continue;
    }
    if (arg == "--limit" && i + 1 < argc) {
      char *end = nullptr;
      o.limit = strtod(argv[++i], &end);
      if (!end || *end || !(o.limit > 0))
        usage("--limit wants a positive number of seconds");
      continue;
    }
    usage(("unknown option " + arg).c_str());
  }
  for (; i < argc; ++i)
    o.command.emplace_back(argv[i]);
  if (o.command.empty())
    usage("no command");
  return o;
}

// How the program ended: exited with a code, or killed by a signal.
struct Status {
  bool signaled = false;
  int value = 0;
};

[[noreturn]] void finish(Status status) {
  if (status.signaled) {
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(status.value, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, status.value);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(status.value);
    _exit(128 + status.value); // a signal whose default is to continue
  }
  exit(status.value);
}

// Waits for pid; with a limit, kills it once the limit is over (SIGCHLD is
// blocked, so sigtimedwait wakes at its exit). False when it was killed so.
bool wait_for(pid_t pid, double limit, double start, int *wstatus) {
  if (limit > 0) {
    sigset_t child;
    sigemptyset(&child);
    sigaddset(&child, SIGCHLD);
    for (;;) {
      pid_t done = waitpid(pid, wstatus, WNOHANG);
      if (done == pid)
        return true;
      double left = start + limit - lit_tools::monotonic_seconds();
      if (left <= 0)
        break;
      timespec wait{
          static_cast<time_t>(left),
          static_cast<long>((left - static_cast<time_t>(left)) * 1e9)};
      sigtimedwait(&child, nullptr, &wait);
    }
    kill(pid, SIGKILL);
  }
  while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR) {
  }
  return limit <= 0;
}

// Runs the command with the given stdout/stderr (-1: inherit); returns its
// status and how long it ran.
std::pair<Status, double> run(const std::vector<std::string> &command,
                              int out_fd, int err_fd, double limit) {
  std::vector<char *> argv;
  for (const auto &word : command)
    argv.push_back(const_cast<char *>(word.c_str()));
  argv.push_back(nullptr);
  double start = lit_tools::monotonic_seconds();
  sigset_t child, before;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  sigprocmask(SIG_BLOCK, &child, &before);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "run-once: fork: %s\n", strerror(errno));
    exit(kToolFailure);
  }
  if (pid == 0) {
    if (out_fd >= 0)
      dup2(out_fd, 1);
    if (err_fd >= 0)
      dup2(err_fd, 2);
    sigprocmask(SIG_SETMASK, &before, nullptr);
    execvp(argv[0], argv.data());
    fprintf(stderr, "run-once: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(kToolFailure);
  }
  int wstatus = 0;
  const bool finished = wait_for(pid, limit, start, &wstatus);
  sigprocmask(SIG_SETMASK, &before, nullptr);
  double seconds = lit_tools::monotonic_seconds() - start;
  Status status;
  if (!finished) {
    fprintf(stderr, "run-once: %s did not finish within %g s; killed\n",
            argv[0], limit);
    status = {false, kOverLimit};
  } else if (WIFSIGNALED(wstatus))
    status = {true, WTERMSIG(wstatus)};
  else
    status = {false, WEXITSTATUS(wstatus)};
  return {status, seconds};
}

std::string joined(const std::vector<std::string> &words) {
  std::string text;
  for (const auto &word : words)
    text.append(text.empty() ? "" : " ").append(word);
  return text;
}

bool same_stream(int a, int b) {
  struct stat sa {
  }, sb{};
  return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// Everything that decides what the program does and prints. A word that
// names a file counts by the file's identity, not its path: the build cache
// hard-links one build into every test that asks for it, so run/X.test and
// values/X.test name one program by two paths.
std::string memo_key(const std::vector<std::string> &command, bool merged) {
  std::string key = merged ? "merged\n" : "separate\n";
  for (const auto &word : command) {
    struct stat st {};
    if (stat(word.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      key.append("file ")
          .append(std::to_string(st.st_dev))
          .append(":")
          .append(std::to_string(st.st_ino))
          .append(":")
          .append(std::to_string(st.st_size))
          .append(":")
          .append(std::to_string(st.st_mtim.tv_sec * 1000000000LL +
                                 st.st_mtim.tv_nsec))
          .append("\n");
    else
      key.append("arg ").append(word).append("\n");
  }
  // The shell's own bookkeeping differs between tests (each runs in its
  // directory) and tells a program nothing it may depend on here.
  static const char *const kShellBookkeeping[] = {
      "_=", "PWD=", "OLDPWD=", "SHLVL="};
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string_view entry(*e);
    if (std::none_of(std::begin(kShellBookkeeping), std::end(kShellBookkeeping),
                     [&](const char *name) { return entry.starts_with(name); }))
      env.emplace_back(entry);
  }
  std::sort(env.begin(), env.end());
  for (const auto &entry : env)
    key.append("env ").append(entry).append("\n");
  return key;
}

// FNV-1a: names the record file; the record keeps the whole key, and a
// replay compares it, so a collision costs a run, never a wrong replay.
std::string key_name(const std::string &key) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : key)
    hash = (hash ^ c) * 0x100000001b3ULL;
  char name[32];
  snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(hash));
  return name;
}

std::optional<std::string> read_file(const std::string &path) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f)
    return std::nullopt;
  std::string data;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, f)) > 0)
    data.append(buffer, n);
  fclose(f);
  return data;
}

bool write_all(int fd, const std::string &data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

bool write_file(const std::string &path, const std::string &data) {
  std::string tmp = path + ".tmp";
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  bool ok = write_all(fd, data);
  close(fd);
  return ok && rename(tmp.c_str(), path.c_str()) == 0;
}

// The record: "run-once 1 <exit|signal> <value>\n", then the key.
std::string record_text(Status status, const std::string &key) {
  return std::string("run-once 1 ") + (status.signaled ? "signal " : "exit ") +
         std::to_string(status.value) + "\n" + key;
}

std::optional<Status> parse_record(const std::string &text,
                                   const std::string &key) {
  size_t newline = text.find('\n');
  if (newline == std::string::npos ||
      text.compare(newline + 1, std::string::npos, key) != 0)
    return std::nullopt;
  char kind[16] = {};
  int value = 0;
  if (sscanf(text.c_str(), "run-once 1 %15s %d", kind, &value) != 2)
    return std::nullopt;
  return Status{strcmp(kind, "signal") == 0, value};
}

[[noreturn]] void run_memoized(const Options &o) {
  bool merged = same_stream(1, 2);
  std::string key = memo_key(o.command, merged);
  std::string base = o.memo + "/" + key_name(key);
  mkdir(o.memo.c_str(), 0755);
  int lock = open((base + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0 || flock(lock, LOCK_EX) != 0) {
    fprintf(stderr, "run-once: cannot lock %s.lock: %s\n", base.c_str(),
            strerror(errno));
    exit(kToolFailure);
  }
  auto record = read_file(base + ".record");
  std::optional<Status> recorded =
      record ? parse_record(*record, key) : std::nullopt;
  if (recorded) {
    auto out = read_file(base + ".out");
    auto err =
        merged ? std::optional<std::string>("") : read_file(base + ".err");
    if (out && err) {
      double start = lit_tools::monotonic_seconds();
      write_all(1, *out);
      write_all(2, *err);
      lit_tools::append_phase(o.log, "run",
                              lit_tools::monotonic_seconds() - start,
                              "replayed", joined(o.command));
      finish(*recorded);
    }
  }
  int out_fd = open((base + ".out").c_str(),
                    O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err_fd = merged ? out_fd
                      : open((base + ".err").c_str(),
                             O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0 || err_fd < 0) {
    fprintf(stderr, "run-once: cannot write to %s: %s\n", o.memo.c_str(),
            strerror(errno));
    exit(kToolFailure);
  }
  auto [status, seconds] = run(o.command, out_fd, err_fd, o.limit);
  lit_tools::append_phase(o.log, "run", seconds, "ran", joined(o.command));
  close(out_fd);
  if (!merged)
    close(err_fd);
  auto out = read_file(base + ".out");
  auto err = merged ? std::optional<std::string>("") : read_file(base + ".err");
  write_all(1, out.value_or(""));
  write_all(2, err.value_or(""));
  if (out && err)
    write_file(base + ".record", record_text(status, key));
  finish(status);
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  if (!o.memo.empty())
    run_memoized(o);
  auto [status, seconds] = run(o.command, -1, -1, o.limit);
  lit_tools::append_phase(o.log, "run", seconds, "ran", joined(o.command));
  finish(status);
}
