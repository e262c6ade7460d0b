// xsdt-trace: runs a D-subset program over the probes of a program it
// starts, without kernel help (xsdt-trace.1). The program is checked here
// first, then run by the agent preloaded into the traced program
// (agent.cpp), which sends its output back over a pipe.
#include "agent_protocol.h"
#include "d_program.h"
#include "launch.h"
#include "shell_words.h"

#include <xsdt/attach.h>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#if !defined(XSDT_VERSION) || !defined(XSDT_TRACE_AGENT_FROM_BIN) ||           \
    !defined(XSDT_TRACE_HOST_ARCH)
#error                                                                         \
    "XSDT_VERSION, XSDT_TRACE_AGENT_FROM_BIN and XSDT_TRACE_HOST_ARCH come from CMakeLists.txt"
#endif

extern char **environ;

namespace xsdt::trace {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void on_interrupt(int) { g_interrupted = 1; }

// Where the agent libraries are: $XSDT_TRACE_AGENT; the host's beside this
// executable in the build tree, else the installed one (<libdir>/xsdt/);
// another arch's in the same prefix, under lib/<its triple>/xsdt/ (the
// multiarch directory its libxsdt package installs into).
AgentPlaces agent_places(const char *argv0) {
  AgentPlaces places;
  places.host_arch = XSDT_TRACE_HOST_ARCH;
  if (const char *env = std::getenv("XSDT_TRACE_AGENT"))
    places.from_env = env;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir =
      n > 0 ? std::string(self, static_cast<std::size_t>(n)) : argv0;
  dir = dir.substr(0, dir.rfind('/') + 1);
  places.prefix = dir + "..";
  for (const std::string &candidate :
       {dir + "libxsdt-trace-agent.so",
        dir + XSDT_TRACE_AGENT_FROM_BIN "/libxsdt-trace-agent.so"})
    if (places.host_agent.empty() && access(candidate.c_str(), R_OK) == 0)
      places.host_agent = candidate;
  return places;
}

struct Options {
  std::vector<std::string> programs; // -n
  std::string script;                // -s
  std::string command;               // -c
  int pid = 0;                       // -p
  std::string output;                // -o
  std::vector<std::string> settings; // -x
  bool list = false, quiet = false;
};

// -x NAME=VALUE as the agent's options: bufsize and nthreads as libxsdt
// takes them, aggsize (each thread's room for aggregations) likewise,
// switchrate as a period in ms (dtrace(1) spells it "10ms", "100hz" or a number
// of hertz).
std::string agent_options(const Options &o) {
  std::string out;
  for (const std::string &setting : o.settings) {
    auto eq = setting.find('=');
    std::string name = setting.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : setting.substr(eq + 1);
    if (name == "bufsize" || name == "nthreads" || name == "aggsize") {
      out += "," + name + "=" + value;
    } else if (name == "switchrate") {
      char *end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      std::string unit = end ? end : "";
      long ms = unit == "ms"                 ? n
                : unit == "hz" || unit == "" ? (n > 0 ? 1000 / n : 0)
                : unit == "s"                ? n * 1000
                                             : -1;
      if (n <= 0 || ms < 0)
        throw CLI::ValidationError("-x switchrate=" + value +
                                   ": a period (10ms, 1s) or a rate (100hz)");
      out += ",switchrate=" + std::to_string(ms > 0 ? ms : 1);
    } else {
      throw CLI::ValidationError("-x " + name +
                                 ": not an option xsdt-trace knows (aggsize, "
                                 "bufsize, nthreads, switchrate)");
    }
  }
  return out.empty() ? "" : out.substr(1);
}

// What the agent said over a session.
struct Outcome {
  bool failed = false, done = false, started = false, exit_action = false;
  int exit_status = 0;
};

// Reads the agent's messages from fd until it is done (when `stop_on_done`
// or interrupted) or the channel ends; the first ^C calls `stop` once.
template <typename Stop>
Outcome receive(int fd, std::ostream *out, bool stop_on_done, Stop stop) {
  Outcome o;
  std::string buffer;
  bool stop_sent = false;
  for (;;) {
    if (g_interrupted && !stop_sent) {
      stop(); // the agent stops, runs END and prints
      stop_sent = true;
    }
    pollfd p{fd, POLLIN, 0};
    int ready = poll(&p, 1, 100);
    if (ready <= 0)
      continue; // a timeout, or EINTR
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    while (auto m = take_message(&buffer)) {
      switch (m->kind) {
      case MessageKind::Started:
        o.started = true;
        break;
      case MessageKind::Output:
      case MessageKind::Listing:
        *out << m->payload;
        out->flush();
        break;
      case MessageKind::Warning:
        std::cerr << "xsdt-trace: warning: " << m->payload << "\n";
        break;
      case MessageKind::Error:
      case MessageKind::Program: // never sent by an agent
        std::cerr << "xsdt-trace: error: " << m->payload << "\n";
        o.failed = true;
        break;
      case MessageKind::Done:
        o.done = true;
        o.exit_status = std::atoi(m->payload.c_str());
        o.exit_action = m->payload.find("exit") != std::string::npos;
        break;
      }
    }
    if (o.done && (stop_on_done || o.exit_action || g_interrupted))
      break; // the trace is over; the program need not be waited for
  }
  return o;
}

int attach(const Options &o, const std::string &source, std::ostream *out,
           const char *argv0);

// The trace's output: -o FILE (opened into *file), else stdout; null, said
// on stderr, when FILE cannot be written.
std::ostream *open_output(const Options &o, std::ofstream *file) {
  if (o.output.empty())
    return &std::cout;
  file->open(o.output);
  if (!*file) {
    std::cerr << "xsdt-trace: cannot write " << o.output << "\n";
    return nullptr;
  }
  return file;
}

int run(const Options &o, const char *argv0) {
  std::string source, source_name = "-n";
  if (!o.script.empty()) {
    std::ifstream in(o.script);
    if (!in) {
      std::cerr << "xsdt-trace: cannot read " << o.script << ": "
                << std::strerror(errno) << "\n";
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    source = text.str();
    source_name = o.script;
  }
  for (const std::string &p : o.programs)
    source += p + "\n";
  if (!o.list) {
    if (source.empty()) {
      std::cerr << "xsdt-trace: no program: give -n PROGRAM or -s FILE\n";
      return 2;
    }
    try {
      parse_program(source, source_name);
    } catch (const ProgramError &e) {
      std::cerr << e.what() << "\n";
      return 2;
    }
  }
  if (o.pid > 0) {
    std::ofstream file;
    std::ostream *out = open_output(o, &file);
    return out ? attach(o, source, out, argv0) : 2;
  }
  std::vector<std::string> words;
  try {
    words = dtrace::split_shell_words(o.command);
  } catch (const std::invalid_argument &e) {
    std::cerr << "xsdt-trace: -c: " << e.what() << "\n";
    return 2;
  }
  if (words.empty()) {
    std::cerr << "xsdt-trace: -c: no command\n";
    return 2;
  }
  Launch launch;
  try {
    launch = plan_launch(words, agent_places(argv0));
  } catch (const LaunchError &e) {
    std::cerr << "xsdt-trace: " << e.what() << "\n";
    return 2;
  }
  char program_path[] = "/tmp/xsdt-trace-XXXXXX";
  int program_fd = mkstemp(program_path);
  if (program_fd < 0 || write(program_fd, source.data(), source.size()) !=
                            static_cast<ssize_t>(source.size())) {
    std::cerr << "xsdt-trace: cannot write the program to " << program_path
              << "\n";
    return 2;
  }
  close(program_fd);
  std::ofstream file;
  std::ostream *out = open_output(o, &file);
  if (!out) {
    unlink(program_path);
    return 2;
  }
  int messages[2], control[2];
  if (pipe(messages) != 0 || pipe(control) != 0) {
    std::cerr << "xsdt-trace: pipe: " << std::strerror(errno) << "\n";
    return 2;
  }
  fcntl(messages[0], F_SETFD, FD_CLOEXEC);
  fcntl(control[1], F_SETFD, FD_CLOEXEC);
  std::string options = agent_options(o);
  if (o.list)
    options += options.empty() ? "list=1" : ",list=1";
  std::string preload = launch.agent;
  if (const char *old = std::getenv("LD_PRELOAD"))
    preload += std::string(":") + old;
  pid_t child = fork();
  if (child == 0) {
    if (file.is_open())
      file.close(); // the -o file is the command's, not the program's
    if (!launch.emulated)
      setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("XSDT_TRACE_PROGRAM", program_path, 1);
    setenv("XSDT_TRACE_OUT", std::to_string(messages[1]).c_str(), 1);
    setenv("XSDT_TRACE_CONTROL", std::to_string(control[0]).c_str(), 1);
    setenv("XSDT_TRACE_OPTIONS", options.c_str(), 1);
    std::vector<char *> argv;
    for (std::string &w : launch.argv)
      argv.push_back(w.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "xsdt-trace: cannot run %s: %s\n", argv[0],
                 std::strerror(errno));
    _exit(127);
  }
  close(messages[1]);
  close(control[0]);
  struct sigaction interrupt {};
  interrupt.sa_handler = on_interrupt;
  sigaction(SIGINT, &interrupt, nullptr);
  sigaction(SIGTERM, &interrupt, nullptr);

  if (o.list)
    *out << "PROVIDER\tMODULE\tNAME\tARGUMENTS\n";
  bool stop_sent = false;
  const Outcome r = receive(messages[0], out, false, [&] {
    close(control[1]);
    stop_sent = true;
  });
  unlink(program_path);
  if (!stop_sent)
    close(control[1]);
  if (r.done && (r.exit_action || g_interrupted))
    kill(child, SIGTERM); // exit() or ^C ends the trace and the program
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!o.quiet && !o.list) {
    if (WIFEXITED(status))
      std::cerr << "xsdt-trace: pid " << child << " exited with status "
                << WEXITSTATUS(status) << "\n";
    else if (WIFSIGNALED(status))
      std::cerr << "xsdt-trace: pid " << child << " was killed by signal "
                << WTERMSIG(status) << "\n";
  }
  if (r.failed)
    return 1;
  if (!r.done) {
    std::cerr << "xsdt-trace: error: the program ended before its agent "
              << (r.started ? "finished the trace"
                            : "started (is it dynamically linked?)")
              << "\n";
    return 1;
  }
  return r.exit_action ? r.exit_status : 0;
}

// -p PID: connects to the program's attach socket (xsdt/attach.h), names
// the agent library for libxsdt to load, and runs the session over the
// connection. The program is never stopped or killed: ^C, exit() or its
// own end finish the trace, and its probes are disabled again.
int attach(const Options &o, const std::string &source, std::ostream *out,
           const char *argv0) {
  const std::string who = "xsdt-trace: pid " + std::to_string(o.pid);
  if (kill(o.pid, 0) != 0 && errno == ESRCH) {
    std::cerr << who << ": no such process\n";
    return 2;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string name = XSDT_ATTACH_SOCKET_PREFIX + std::to_string(o.pid);
  std::memcpy(addr.sun_path + 1, name.data(), name.size());
  const auto size =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr *>(&addr), size) != 0) {
    std::cerr << who << ": no xsdt attach socket (@" << name
              << "): the program must call xsdt_attach_listen() ("
              << std::strerror(errno) << ")\n";
    return 2;
  }
  // Then the agent of the program's arch: the host's, or, for a program of
  // another arch under its emulator, that arch's (libxsdt in the program
  // loads it).
  const AgentPlaces places = agent_places(argv0);
  std::string agent;
  try {
    agent =
        find_agent(process_arch(o.pid), places, "pid " + std::to_string(o.pid));
  } catch (const LaunchError &e) {
    std::cerr << "xsdt-trace: " << e.what() << "\n";
    close(fd);
    return 2;
  }
  char resolved[PATH_MAX];
  const std::string agent_path =
      realpath(agent.c_str(), resolved) ? resolved : agent;
  std::string request = agent_path + "\n";
  std::string answer;
  char c;
  if (write(fd, request.data(), request.size()) !=
      static_cast<ssize_t>(request.size())) {
    std::cerr << who << ": the attach socket closed\n";
    return 1;
  }
  while (read(fd, &c, 1) == 1 && c != '\n')
    answer += c;
  if (answer != "ok") {
    std::cerr << who << ": "
              << (answer.empty() ? "the program closed the attach socket"
                                 : answer)
              << "\n";
    return 1;
  }
  std::string options = agent_options(o);
  if (o.list)
    options += options.empty() ? "list=1" : ",list=1";
  const std::string program =
      encode_message(MessageKind::Program, options + "\n" + source);
  if (write(fd, program.data(), program.size()) !=
      static_cast<ssize_t>(program.size())) {
    std::cerr << who << ": the attach socket closed\n";
    return 1;
  }
  struct sigaction interrupt {};
  interrupt.sa_handler = on_interrupt;
  sigaction(SIGINT, &interrupt, nullptr);
  sigaction(SIGTERM, &interrupt, nullptr);
  if (o.list)
    *out << "PROVIDER\tMODULE\tNAME\tARGUMENTS\n";
  const Outcome r = receive(fd, out, true, [fd] { shutdown(fd, SHUT_WR); });
  close(fd);
  if (r.failed)
    return 1;
  if (!r.done) {
    std::cerr << who
              << ": the program ended before its agent finished the "
                 "trace\n";
    return 1;
  }
  if (!o.quiet && !o.list)
    std::cerr << who << ": detached\n";
  return r.exit_action ? r.exit_status : 0;
}

} // namespace
} // namespace xsdt::trace

int main(int argc, char **argv) {
  xsdt::trace::Options o;
  CLI::App app{"xsdt-trace: trace the stapsdt and SDT probes of a program, "
               "in process, with a D-subset program"};
  app.set_version_flag("--version", std::string("xsdt-trace ") + XSDT_VERSION);
  app.add_option("-n", o.programs,
                 "a D program (repeatable: the clauses of all)");
  app.add_option("-s", o.script, "a D program file")->check(CLI::ExistingFile);
  auto *command =
      app.add_option("-c", o.command, "the command to run and trace");
  auto *pid = app.add_option("-p", o.pid,
                             "trace the running program PID (it calls "
                             "xsdt_attach_listen())");
  command->excludes(pid);

  app.add_flag("-l", o.list,
               "list the probes of the command's program and exit");
  app.add_option("-o", o.output, "write the trace's output to FILE");
  app.add_flag("-q", o.quiet, "print only what the program's actions print");
  app.add_option("-x", o.settings,
                 "aggsize=SIZE, bufsize=SIZE, nthreads=N, switchrate=RATE");
  CLI11_PARSE(app, argc, argv);
  if (command->count() + pid->count() != 1) {
    std::cerr << "xsdt-trace: give -c COMMAND or -p PID\n" << app.help();
    return 2;
  }
  try {
    return xsdt::trace::run(o, argv[0]);
  } catch (const CLI::ValidationError &e) {
    std::cerr << "xsdt-trace: " << e.what() << "\n";
    return 2;
  }
}
