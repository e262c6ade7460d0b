// libxsdt: the attach listener (xsdt/attach.h). It knows nothing of the
// tracer's protocol past the first line: the agent it loads runs the
// session on the connection.
#include "xsdt/attach.h"

#include "errors.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

// A word, not a bool: riscv64's gcc has no inline 1-byte exchange, and
// libxsdt links no libatomic.
std::atomic<int> g_listening{0};

void reply(int fd, const std::string &line) {
  const char *p = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    ssize_t n = send(fd, p, left, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// The agent's path, the connection's first line, read a byte at a time so
// that nothing of the session that follows is consumed here.
bool read_line(int fd, std::string *line) {
  char c;
  while (line->size() < PATH_MAX) {
    ssize_t n = read(fd, &c, 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    if (c == '\n')
      return true;
    line->push_back(c);
  }
  return false;
}

bool same_user(int fd) {
  ucred peer{};
  socklen_t size = sizeof peer;
  return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 &&
         (peer.uid == geteuid() || peer.uid == 0);
}

void serve(int fd) {
  if (!same_user(fd)) {
    reply(fd, "error: the tracer is another user\n");
    return;
  }
  std::string path;
  if (!read_line(fd, &path) || path.empty()) {
    reply(fd, "error: no agent library named\n");
    return;
  }
  void *agent = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!agent) {
    const char *why = dlerror();
    reply(fd, "error: loading " + path + ": " + (why ? why : "?") + "\n");
    return;
  }
  auto *entry = reinterpret_cast<int (*)(int)>(dlsym(agent, XSDT_ATTACH_ENTRY));
  if (!entry) {
    reply(fd, "error: " + path + " has no " XSDT_ATTACH_ENTRY "\n");
    return;
  }
  reply(fd, "ok\n");
  entry(fd);
}

void *listen_loop(void *arg) {
  const int listener = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
  for (;;) {
    int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED)
        continue;
      return nullptr;
    }
    serve(fd);
    close(fd);
  }
}

} // namespace

extern "C" int xsdt_attach_listen(xsdt_error *err) {
  using xsdt::rt::fail;
  xsdt::rt::clear(err);
  if (g_listening.exchange(1))
    return 0;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    g_listening = 0;
    return fail(err, XSDT_ERR_INTERNAL, "attach: socket: %s",
                std::strerror(errno));
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  // Abstract: the name ends with the process, no file is left behind.
  int len =
      std::snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1,
                    XSDT_ATTACH_SOCKET_PREFIX "%d", static_cast<int>(getpid()));
  socklen_t size =
      static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + len);
  if (bind(fd, reinterpret_cast<sockaddr *>(&addr), size) != 0 ||
      listen(fd, 4) != 0) {
    int saved = errno;
    close(fd);
    g_listening = 0;
    return fail(err, XSDT_ERR_INTERNAL, "attach: @%s: %s", addr.sun_path + 1,
                std::strerror(saved));
  }
  pthread_t thread;
  int started = pthread_create(&thread, nullptr, listen_loop,
                               reinterpret_cast<void *>(std::intptr_t{fd}));
  if (started != 0) {
    close(fd);
    g_listening = 0;
    return fail(err, XSDT_ERR_INTERNAL, "attach: pthread_create: %s",
                std::strerror(started));
  }
  pthread_detach(thread);
  return 0;
}
