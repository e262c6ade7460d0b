// Probe, semaphore and file names: see names.h.
#include "names.h"

#include <cctype>

namespace xsdt::dtrace {

namespace {
std::string upper(std::string_view s) {
  std::string out(s);
  for (char &c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}
} // namespace

std::string macro_name(std::string_view provider, std::string_view probe) {
  std::string name;
  for (size_t i = 0; i < probe.size(); ++i) {
    name += probe[i];
    if (probe[i] == '_' && i + 1 < probe.size() && probe[i + 1] == '_')
      ++i; // "__" -> "_"
  }
  return upper(provider) + "_" + upper(name);
}

std::string semaphore_name(std::string_view provider, std::string_view probe) {
  return std::string(provider) + "_" + std::string(probe) + "_semaphore";
}

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string include_guard(std::string_view output_path) {
  std::string guard = "XSDT_DTRACE_";
  for (char c : base_name(output_path))
    guard +=
        std::isalnum(static_cast<unsigned char>(c))
            ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
            : '_';
  return guard;
}

std::string default_output(std::string_view provider_file,
                           std::string_view suffix) {
  std::string_view base = base_name(provider_file);
  // os.path.splitext: the last dot, unless only dots precede it.
  size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && base.find_first_not_of('.') < dot)
    base = base.substr(0, dot);
  return std::string(base) + std::string(suffix);
}

} // namespace xsdt::dtrace
