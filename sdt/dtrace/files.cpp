// Files and the temporary directory: see files.h.
#include "files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <stdlib.h>

namespace xsdt::dtrace {

namespace {
std::string why() { return std::strerror(errno); }
} // namespace

std::string read_file(const std::string &path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw FileError("cannot read '" + path + "': " + why());
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw FileError("cannot read '" + path + "': " + why());
  // A directory opens but reads nothing and sets failbit on rdbuf.
  if (std::filesystem::is_directory(path))
    throw FileError("cannot read '" + path + "': Is a directory");
  return text.str();
}

void write_file(const std::string &path, const std::string &content) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    throw FileError("cannot write '" + path + "': " + why());
  bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  int saved = errno;
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    errno = saved;
    throw FileError("cannot write '" + path + "': " + why());
  }
}

std::string directory_of(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

TempDir::TempDir(const std::string &output) {
  std::string pattern = directory_of(output) + "/.xsdt-dtrace.XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw FileError("cannot create a temporary directory beside '" + output +
                    "' (" + pattern + "): " + why());
  path_ = buf.data();
}

TempDir::~TempDir() {
  if (keep_)
    return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void move_into_place(const std::string &from, const std::string &to) {
  if (std::rename(from.c_str(), to.c_str()) != 0)
    throw FileError("cannot rename '" + from + "' to '" + to + "': " + why());
}

} // namespace xsdt::dtrace
