// notes-table: turns `readelf -n -S -W` output into one line per fact, for
// FileCheck.
//
//   readelf -n -S -W FILE | notes-table [--ignore-provider=NAME]...
//
//   section NAME addr=0x... size=0x...
//   note provider=P name=N pc=0x... base=0x... semaphore=0x... argc=K
//   args=SPECS
//   ...
//   probe provider=P name=N notes=K        one per probe, sorted
//   ignored provider=NAME notes=K          one per --ignore-provider
//   total notes=K
//
// The note lines come from readelf alone, not from xsdt's own ELF reader, so
// that the notes tests check xsdt against binutils. Addresses are printed as
// 0x%x so that section and note addresses compare textually. Notes keep
// readelf's order (the linker's); tests match them with CHECK-DAG. The
// counts follow every note line, so a test checks them after its CHECK-DAG
// block. --ignore-provider leaves out the notes of a provider that is not
// the program's (static x86-64 links carry libstdc++'s own probes) and says
// how many it left out.
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

bool is_hex(const std::string &text) {
  return !text.empty() &&
         text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

std::string hex(unsigned long long value) {
  char text[32];
  snprintf(text, sizeof text, "%#llx", value);
  return value == 0 ? "0x0" : text;
}

// Only called on is_hex() text; more than 64 bits is not an ELF address.
unsigned long long parse_hex(const std::string &text) {
  if (text.size() > 16 && text.find_first_not_of('0') < text.size() - 16) {
    fprintf(stderr, "notes-table: hex value wider than 64 bits: '%s'\n",
            text.c_str());
    exit(2);
  }
  return std::stoull(text, nullptr, 16);
}

// "  [ 5] .text PROGBITS 0000000000001040 001040 000185 00 AX 0 0 16":
// name, type, address, offset, size.
bool section_line(const std::string &line, std::string &out) {
  std::string text = trim(line);
  if (text.size() < 3 || text[0] != '[')
    return false;
  size_t close = text.find(']');
  if (close == std::string::npos)
    return false;
  std::string number = trim(text.substr(1, close - 1));
  if (number.empty() ||
      number.find_first_not_of("0123456789") != std::string::npos)
    return false;
  std::istringstream fields(text.substr(close + 1));
  std::vector<std::string> f;
  std::string word;
  while (fields >> word)
    f.push_back(word);
  if (f.size() < 6 || !is_hex(f[2]) || !is_hex(f[3]) || !is_hex(f[4]))
    return false;
  // A blank name (the null section [ 0]): the first word is the type and
  // the second the address. Not a section of the program.
  if (is_hex(f[1]))
    return false;
  out = "section " + f[0] + " addr=" + hex(parse_hex(f[2])) +
        " size=" + hex(parse_hex(f[4]));
  return true;
}

// "Location: 0x..., Base: 0x..., Semaphore: 0x..."
bool location(const std::string &text, std::string &pc, std::string &base,
              std::string &semaphore) {
  char a[64], b[64], c[64];
  if (sscanf(text.c_str(),
             "Location: 0x%63[0-9a-fA-F], Base: 0x%63[0-9a-fA-F], "
             "Semaphore: 0x%63[0-9a-fA-F]",
             a, b, c) != 3)
    return false;
  pc = hex(parse_hex(a));
  base = hex(parse_hex(b));
  semaphore = hex(parse_hex(c));
  return true;
}

// Specs are separated by spaces, but an aarch64 memory operand has one
// inside ("[sp, 16]"): print it as "[sp,16]", one token per spec, so that a
// pattern can match a spec as {{[^ ]+}}.
std::string one_token_per_spec(const std::string &args) {
  std::string out;
  bool in_brackets = false;
  for (size_t i = 0; i < args.size(); ++i) {
    char c = args[i];
    if (c == '[')
      in_brackets = true;
    else if (c == ']')
      in_brackets = false;
    else if (in_brackets && c == ' ' && i > 0 && args[i - 1] == ',')
      continue;
    out += c;
  }
  return out;
}

int count_specs(const std::string &args) {
  std::istringstream words(args);
  std::string word;
  int n = 0;
  while (words >> word)
    ++n;
  return n;
}

// A note that readelf printed but that cannot be read: the test would
// otherwise check a table without it.
[[noreturn]] void malformed(const std::string &what, const std::string &line) {
  fprintf(stderr, "notes-table: %s: '%s'\n", what.c_str(), line.c_str());
  exit(2);
}

} // namespace

int main(int argc, char **argv) {
  std::set<std::string> ignored_providers;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const std::string option = "--ignore-provider=";
    if (arg.rfind(option, 0) == 0 && arg.size() > option.size()) {
      ignored_providers.insert(arg.substr(option.size()));
    } else {
      fprintf(stderr,
              "notes-table: unknown argument '%s'\n"
              "usage: readelf -n -S -W FILE | notes-table "
              "[--ignore-provider=NAME]...\n",
              arg.c_str());
      return 2;
    }
  }

  std::map<std::pair<std::string, std::string>, int> per_probe;
  std::map<std::string, int> ignored;
  for (const auto &provider : ignored_providers)
    ignored[provider] = 0;
  int total = 0;
  std::string provider, name, pc, base, semaphore;
  bool have_provider = false, have_location = false;
  std::string line, note_start;
  while (std::getline(std::cin, line)) {
    std::string section;
    if (section_line(line, section)) {
      std::cout << section << "\n";
      continue;
    }
    std::string text = trim(line);
    size_t at = text.find("Provider:");
    if (at != std::string::npos) {
      if (have_provider)
        malformed("a stapsdt note without its Location and Arguments lines",
                  note_start);
      note_start = text;
      provider = trim(text.substr(at + 9));
      have_provider = true;
      have_location = false;
      name.clear();
    } else if (have_provider && text.rfind("Name:", 0) == 0) {
      name = trim(text.substr(5));
    } else if (text.rfind("Location:", 0) == 0) {
      have_location = location(text, pc, base, semaphore);
      if (have_provider && !have_location)
        malformed("a stapsdt note's Location line that cannot be read", text);
    } else if (have_provider && have_location &&
               text.rfind("Arguments:", 0) == 0) {
      std::string args = one_token_per_spec(trim(text.substr(10)));
      have_provider = have_location = false;
      if (ignored_providers.count(provider)) {
        ++ignored[provider];
        continue;
      }
      std::cout << "note provider=" << provider << " name=" << name
                << " pc=" << pc << " base=" << base
                << " semaphore=" << semaphore << " argc=" << count_specs(args)
                << " args=" << args << "\n";
      ++per_probe[{provider, name}];
      ++total;
    }
  }
  if (have_provider)
    malformed("a stapsdt note without its Location and Arguments lines",
              note_start);
  for (const auto &[probe, notes] : per_probe)
    std::cout << "probe provider=" << probe.first << " name=" << probe.second
              << " notes=" << notes << "\n";
  for (const auto &[ignored_provider, notes] : ignored)
    std::cout << "ignored provider=" << ignored_provider << " notes=" << notes
              << "\n";
  std::cout << "total notes=" << total << "\n";
  return 0;
}
