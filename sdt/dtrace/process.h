// Running the C preprocessor and the C compiler.
#ifndef XSDT_DTRACE_PROCESS_H
#define XSDT_DTRACE_PROCESS_H

#include <string>
#include <vector>

namespace xsdt::dtrace {

// Runs argv (argv[0] looked up in PATH) with this process's stdin, stdout
// and stderr, and waits. Returns "" when it exits with status 0, else what
// went wrong: "exited with status 1", "was killed by signal 9",
// "cannot be run: No such file or directory".
std::string run_command(const std::vector<std::string> &argv);

// argv as one shell command line, for messages.
std::string command_line(const std::vector<std::string> &argv);

} // namespace xsdt::dtrace

#endif
