// xsdt-trace: runs a D-subset program over the probes of a program it
// starts, without kernel help (xsdt-trace.1). The program is checked here
// first, then run by the agent preloaded into the traced program
// (agent.cpp), which sends its output back over a pipe.
#include "agent_protocol.h"
#include "d_program.h"
#include "launch.h"
#include "shell_words.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <poll.h>
#include <sstream>
#include <string>
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
  std::string output;                // -o
  std::vector<std::string> settings; // -x
  bool list = false, quiet = false;
};

// -x NAME=VALUE as the agent's options: bufsize and nthreads as libxsdt
// takes them, switchrate as a period in ms (dtrace(1) spells it "10ms",
// "100hz" or a number of hertz).
std::string agent_options(const Options &o) {
  std::string out;
  for (const std::string &setting : o.settings) {
    auto eq = setting.find('=');
    std::string name = setting.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : setting.substr(eq + 1);
    if (name == "bufsize" || name == "nthreads") {
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
                                 ": not an option xsdt-trace knows (bufsize, "
                                 "nthreads, switchrate)");
    }
  }
  return out.empty() ? "" : out.substr(1);
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
  std::ostream *out = &std::cout;
  std::ofstream file;
  if (!o.output.empty()) {
    file.open(o.output);
    if (!file) {
      std::cerr << "xsdt-trace: cannot write " << o.output << "\n";
      unlink(program_path);
      return 2;
    }
    out = &file;
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

  std::string buffer;
  bool failed = false, done = false, started = false, stop_sent = false;
  int exit_status = 0;
  bool exit_action = false;
  if (o.list)
    *out << "PROVIDER\tMODULE\tNAME\tARGUMENTS\n";
  for (;;) {
    if (g_interrupted && !stop_sent) {
      close(control[1]); // the agent stops, runs END and prints
      stop_sent = true;
    }
    pollfd p{messages[0], POLLIN, 0};
    int ready = poll(&p, 1, 100);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    char chunk[65536];
    ssize_t n = read(messages[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    while (auto m = take_message(&buffer)) {
      switch (m->kind) {
      case MessageKind::Started:
        started = true;
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
        std::cerr << "xsdt-trace: error: " << m->payload << "\n";
        failed = true;
        break;
      case MessageKind::Done:
        done = true;
        exit_status = std::atoi(m->payload.c_str());
        exit_action = m->payload.find("exit") != std::string::npos;
        break;
      }
    }
    if (done && (exit_action || g_interrupted))
      break; // the trace is over; the program need not be waited for
  }
  unlink(program_path);
  if (!stop_sent)
    close(control[1]);
  if (done && (exit_action || g_interrupted))
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
  if (failed)
    return 1;
  if (!done) {
    std::cerr << "xsdt-trace: error: the program ended before its agent "
              << (started ? "finished the trace"
                          : "started (is it dynamically linked?)")
              << "\n";
    return 1;
  }
  return exit_action ? exit_status : 0;
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
  app.add_option("-c", o.command, "the command to run and trace")->required();
  app.add_flag("-l", o.list,
               "list the probes of the command's program and exit");
  app.add_option("-o", o.output, "write the trace's output to FILE");
  app.add_flag("-q", o.quiet, "print only what the program's actions print");
  app.add_option("-x", o.settings, "bufsize=SIZE, nthreads=N, switchrate=RATE");
  CLI11_PARSE(app, argc, argv);
  try {
    return xsdt::trace::run(o, argv[0]);
  } catch (const CLI::ValidationError &e) {
    std::cerr << "xsdt-trace: " << e.what() << "\n";
    return 2;
  }
}
