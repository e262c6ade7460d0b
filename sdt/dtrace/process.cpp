// Running commands: see process.h.
#include "process.h"

#include "shell_words.h"

#include <cerrno>
#include <cstring>

#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace xsdt::dtrace {

std::string run_command(const std::vector<std::string> &argv) {
  if (argv.empty())
    return "is empty";
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int err = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (err != 0)
    return std::string("cannot be run: ") + std::strerror(err);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return std::string("cannot be waited for: ") + std::strerror(errno);
  if (WIFEXITED(status)) {
    // glibc's posix_spawnp reports a failed exec as exit status 127 on
    // old versions; newer ones return the error above.
    return WEXITSTATUS(status) == 0
               ? ""
               : "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status))
    return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended with wait status " + std::to_string(status);
}

std::string command_line(const std::vector<std::string> &argv) {
  std::string line;
  for (const std::string &a : argv) {
    if (!line.empty())
      line += ' ';
    line += quote_shell_word(a);
  }
  return line;
}

} // namespace xsdt::dtrace
