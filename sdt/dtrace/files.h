// Reading the provider file, and the temporary directory beside the output
// from which a finished output is renamed into place, so that a failure
// never leaves a missing, empty or half-written output behind.
#ifndef XSDT_DTRACE_FILES_H
#define XSDT_DTRACE_FILES_H

#include <stdexcept>
#include <string>

namespace xsdt::dtrace {

// A file or process operation that failed; what() says which and why.
class FileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// The whole file. Throws FileError ("cannot read 'x.d': No such file...").
std::string read_file(const std::string &path);

// Creates or truncates `path` with `content`. Throws FileError.
void write_file(const std::string &path, const std::string &content);

// A fresh directory `.xsdt-dtrace.XXXXXX` in the directory of `output`,
// removed with its files by the destructor unless keep() was called.
class TempDir {
public:
  explicit TempDir(const std::string &output);
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  void keep() { keep_ = true; }

private:
  std::string path_;
  bool keep_ = false;
};

// Renames `from` to `to` (same file system). Throws FileError.
void move_into_place(const std::string &from, const std::string &to);

// The directory part of a path: "a/b.h" -> "a", "b.h" -> ".".
std::string directory_of(const std::string &path);

} // namespace xsdt::dtrace

#endif
