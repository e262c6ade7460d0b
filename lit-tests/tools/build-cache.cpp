// build-cache: compile once, then reuse, for every check of a cell and for
// every cell that runs the same compile.
//
//   build-cache --cache DIR [--deps DIR]... [--log FILE] [--installed FILE]
//               -- COMMAND... -o OUT
//
// The key (SHA-256) covers the compiler binary (resolved path, size, mtime),
// every word of the command but OUT, the contents of every file the command
// names, and the contents (and relative names) of every file under the
// --deps directories: the headers the sources may include. A file named on
// the command line counts by its base name and contents, not by its
// directory, so that two tests that each built the same library into their
// own directory (and link it) share one key.
//
// A miss compiles into a private name in DIR and renames it into place;
// concurrent builds of one key wait for the first (flock), so no compile
// runs twice. A hit hard-links (or copies) the cached output to OUT,
// creating OUT's directory if need be. What the compiler printed is kept
// with the output and printed again on every hit, on the same streams.
//
// A compile that fails is cached too: same key, same inputs, same compiler,
// same diagnostics. Its exit status and output are replayed, so the tests of
// a cell that all build one program that does not compile (a reference
// implementation's known bug) pay for one failing compile, not one each. Only
// a compiler that ran and said no is replayed: a compiler killed by a signal
// or that could not be started is run again next time. A failure may come
// from a piece the key cannot see (a sanitizer runtime or a library the
// link looks for, not yet installed), so it is replayed only while the
// installed packages are unchanged: the failure keeps the size and mtime of
// the package database (--installed, default /var/lib/dpkg/status), and a
// package installed since makes the compiler run again.
//
// With --log, each build appends its time to the cell's phase log
// (phase_log.h): "compiled", "failed" (a compile that ran and failed) or
// "cached" (reused, a failure included).
//
// Exit status: the compiler's; 125 when build-cache itself cannot work.
#include "phase_log.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr int kToolFailure = 125;

struct Options {
  std::string cache;
  std::string log;
  std::string installed = "/var/lib/dpkg/status";
  std::vector<std::string> deps;
  std::vector<std::string> command;
  size_t out_index = 0;
};

[[noreturn]] void fail(const std::string &message) {
  fprintf(stderr, "build-cache: %s\n", message.c_str());
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
    if (i + 1 >= argc)
      fail("option " + arg + " needs a value");
    if (arg == "--cache")
      o.cache = argv[++i];
    else if (arg == "--log")
      o.log = argv[++i];
    else if (arg == "--deps")
      o.deps.emplace_back(argv[++i]);
    else if (arg == "--installed")
      o.installed = argv[++i];
    else
      fail("unknown option " + arg +
           "\nusage: build-cache --cache DIR [--deps DIR]... [--log FILE] "
           "[--installed FILE] -- COMMAND... -o OUT");
  }
  for (; i < argc; ++i)
    o.command.emplace_back(argv[i]);
  if (o.cache.empty() || o.command.empty())
    fail("usage: build-cache --cache DIR [--deps DIR]... [--log FILE] "
         "[--installed FILE] -- COMMAND... -o OUT");
  auto o_flag = std::find(o.command.begin(), o.command.end(), "-o");
  if (o_flag == o.command.end() || o_flag + 1 == o.command.end())
    fail("the compile command needs -o OUT");
  o.out_index = static_cast<size_t>(o_flag - o.command.begin()) + 1;
  return o;
}

class Sha256 {
public:
  Sha256() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!context_ ||
        EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
      fail("cannot initialise SHA-256");
  }
  // Each field is length-prefixed: "ab"+"c" and "a"+"bc" differ.
  void field(std::string_view text) {
    uint64_t size = text.size();
    EVP_DigestUpdate(context_.get(), &size, sizeof size);
    EVP_DigestUpdate(context_.get(), text.data(), text.size());
  }
  bool file(const std::string &path) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
      return false;
    std::string data;
    char buffer[65536];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, f)) > 0)
      data.append(buffer, n);
    fclose(f);
    field(data);
    return true;
  }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(context_.get(), digest, &size);
    std::string text;
    char byte[3];
    for (unsigned i = 0; i < size; ++i) {
      snprintf(byte, sizeof byte, "%02x", digest[i]);
      text += byte;
    }
    return text;
  }

private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> context_;
};

bool is_regular_file(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The compiler as execvp would find it.
std::optional<std::string> find_program(const std::string &name) {
  if (name.find('/') != std::string::npos)
    return is_regular_file(name) ? std::optional(name) : std::nullopt;
  const char *path = getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos)
      end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0 && is_regular_file(candidate))
      return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::string compute_key(const Options &o) {
  Sha256 key;
  key.field("build-cache 1");
  if (auto compiler = find_program(o.command[0])) {
    std::error_code ec;
    fs::path real = fs::canonical(*compiler, ec);
    struct stat st {};
    stat(real.c_str(), &st);
    key.field(
        real.string() + ":" + std::to_string(st.st_size) + ":" +
        std::to_string(st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec));
  }
  for (size_t i = 0; i < o.command.size(); ++i) {
    if (i == o.out_index)
      continue;
    const std::string &word = o.command[i];
    if (i > 0 && is_regular_file(word)) {
      key.field("file " + fs::path(word).filename().string());
      key.file(word);
    } else {
      key.field("word " + word);
    }
  }
  for (const auto &root : o.deps) {
    // A --deps directory that is not there would leave its headers out of
    // the key, silently: a stale build would be reused after they change.
    if (!fs::is_directory(root))
      fail("--deps " + root + ": not a directory");
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end;
         it.increment(ec))
      if (it->is_regular_file())
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
    key.field("deps " + std::to_string(files.size()));
    for (const auto &file : files) {
      key.field(fs::relative(file, root).string());
      key.file(file.string());
    }
  }
  return key.hex();
}

// How the compiler ended: its exit status, or that it did not run to an
// exit of its own (killed by a signal, or not started).
struct Outcome {
  int status = 0;
  bool replayable = false; // it ran and exited: its verdict can be reused
};

// Runs the command with its stdout and stderr going to the given files.
Outcome run(const std::vector<std::string> &command, const std::string &out,
            const std::string &err) {
  std::vector<char *> argv;
  for (const auto &word : command)
    argv.push_back(const_cast<char *>(word.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0)
    fail(std::string("fork: ") + strerror(errno));
  if (pid == 0) {
    int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
      _exit(126);
    execvp(argv[0], argv.data());
    fprintf(stderr, "build-cache: cannot run %s: %s\n", argv[0],
            strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return {128 + WTERMSIG(status), false};
  int code = WEXITSTATUS(status);
  return {code, code != 126 && code != 127};
}

// Copies a file to a stream (the compiler's saved output); a missing file is
// empty.
void replay(const std::string &path, FILE *to) {
  FILE *from = fopen(path.c_str(), "rb");
  if (!from)
    return;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, from)) > 0)
    fwrite(buffer, 1, n, to);
  fclose(from);
  fflush(to);
}

// What the installed packages were: the package database's size and
// mtime, "none" without one.
std::string installed_stamp(const std::string &database) {
  struct stat st;
  if (stat(database.c_str(), &st) != 0)
    return "none";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) +
         "." + std::to_string(st.st_mtim.tv_nsec);
}

// The exit status of a cached failing compile, if the key has one that
// failed with the packages installed now.
std::optional<int> cached_failure(const std::string &cached,
                                  const std::string &stamp) {
  FILE *f = fopen((cached + ".failed").c_str(), "r");
  if (!f)
    return std::nullopt;
  int status = 0;
  char then[128] = "";
  bool ok =
      fscanf(f, "%d %127s", &status, then) == 2 && status > 0 && stamp == then;
  fclose(f);
  return ok ? std::optional(status) : std::nullopt;
}

void store_text(const std::string &path, const std::string &text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f || fputs(text.c_str(), f) < 0 || fclose(f) != 0 ||
      rename(tmp.c_str(), path.c_str()) != 0)
    fail("cannot store " + path + ": " + strerror(errno));
}

// Hard-links (or copies) the cached output to OUT, creating OUT's directory.
void place(const std::string &cached, const std::string &out) {
  std::error_code ec;
  fs::path parent = fs::path(out).parent_path();
  if (!parent.empty())
    fs::create_directories(parent, ec);
  unlink(out.c_str());
  if (link(cached.c_str(), out.c_str()) == 0)
    return;
  fs::copy_file(cached, out, fs::copy_options::overwrite_existing, ec);
  if (ec)
    fail("cannot place " + out + ": " + ec.message());
}

} // namespace

int main(int argc, char **argv) {
  double started = lit_tools::monotonic_seconds();
  Options o = parse(argc, argv);
  const std::string out = o.command[o.out_index];
  std::error_code ec;
  fs::create_directories(o.cache, ec);
  const std::string cached = o.cache + "/" + compute_key(o);
  const std::string saved_out = cached + ".stdout",
                    saved_err = cached + ".stderr";
  auto log = [&](const char *outcome) {
    lit_tools::append_phase(
        o.log, "build", lit_tools::monotonic_seconds() - started, outcome, out);
  };

  int lock =
      open((cached + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0 || flock(lock, LOCK_EX) != 0)
    fail("cannot lock " + cached + ".lock: " + strerror(errno));
  const char *outcome = "cached";
  const std::string stamp = installed_stamp(o.installed);
  std::optional<int> failure = cached_failure(cached, stamp);
  if (!failure && !is_regular_file(cached)) {
    std::vector<std::string> command = o.command;
    std::string tmp = cached + ".tmp." + std::to_string(getpid());
    command[o.out_index] = tmp;
    Outcome result = run(command, saved_out, saved_err);
    if (result.status != 0) {
      unlink(tmp.c_str());
      replay(saved_out, stdout);
      replay(saved_err, stderr);
      if (result.replayable)
        store_text(cached + ".failed",
                   std::to_string(result.status) + " " + stamp + "\n");
      log("failed");
      return result.status;
    }
    if (rename(tmp.c_str(), cached.c_str()) != 0)
      fail("cannot store " + cached + ": " + strerror(errno));
    outcome = "compiled";
  }
  close(lock);
  replay(saved_out, stdout);
  replay(saved_err, stderr);
  if (failure) {
    log("cached");
    return *failure;
  }
  place(cached, out);
  log(outcome);
  return 0;
}
