// The model of a provider file (`provider NAME { probe NAME(PARAMS); }`)
// and the error that the lexer and the parser report.
#ifndef XSDT_DTRACE_PROVIDER_H
#define XSDT_DTRACE_PROVIDER_H

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace xsdt::dtrace {

// A position in the provider file as the user wrote it: after `# LINE
// "FILE"` markers (cpp output) the file and line the marker names.
// Line and column count from 1; a column counts bytes.
struct Location {
  std::string file;
  int line = 1;
  int column = 1;
};

// FILE:LINE:COL
std::string to_string(const Location &loc);

// A malformed provider file. what() is the whole diagnostic,
// "FILE:LINE:COL: error: MESSAGE", plus any "note:" lines.
class SyntaxError : public std::runtime_error {
public:
  SyntaxError(Location loc, std::string message, std::string notes = "");
  const Location &location() const { return loc_; }
  const std::string &message() const { return message_; }

private:
  Location loc_;
  std::string message_;
};

// One parameter of a probe, e.g. `const char *path`: `declaration` is the
// whole parameter, `type` the same without the name ("const char *"),
// `name` empty when the parameter has none.
struct Parameter {
  std::string declaration;
  std::string type;
  std::string name;
  Location loc;
};

struct Probe {
  std::string name; // as written: keeps `__`
  Location loc;
  std::vector<Parameter> parameters; // the native ones: the macro's
  // The translated parameters after `: (...)`, when the probe has them.
  std::optional<std::vector<Parameter>> translated;
};

struct Provider {
  std::string name;
  Location loc;
  std::vector<Probe> probes;
};

struct ProviderFile {
  std::vector<Provider> providers;
};

// A probe takes at most this many arguments (stapsdt, sys/sdt.h, xsdt).
inline constexpr int max_parameters = 12;

} // namespace xsdt::dtrace

#endif
