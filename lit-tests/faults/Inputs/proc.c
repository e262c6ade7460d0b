/* /proc unavailable, or the program's own file unreadable. Discovery reads
 * the main program's notes and section headers from /proc/self/exe
 * (docs/runtime.md, "Finding the probes"). The program wraps open, open64,
 * readlink, pread and close (-Wl,--wrap=...) and, while armed:
 *
 *   enoent  every path under /proc/ fails with ENOENT (no /proc mounted)
 *   eacces  every path under /proc/ fails with EACCES (a sandbox)
 *   eio     /proc/self/exe opens, but every pread of it fails with EIO
 *
 * What must happen: no crash; the program's probes are not found (the
 * documented fallback: an object whose file cannot be read has no probes),
 * so enabling them is XSDT_ERR_NO_MATCH and no site changes; where the
 * file cannot be opened, xsdt_sdt_list_invalid says which and why. Once
 * /proc is back the USDT probes are found and fire with the values the
 * source passed. With "sdt-after", the SDT probes are enabled after /proc
 * is back too.
 *
 * Usage: proc enoent|eacces|eio [sdt-after] */
#include "fault-test.h"

#include <fcntl.h>
#include <stdarg.h>

/* ---- The fault ----------------------------------------------------------- */

static int armed, fault_errno, exe_fd = -1, eio;

static int refused(const char *path) {
  return armed && !eio && strncmp(path, "/proc/", 6) == 0;
}

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);
ssize_t __real_readlink(const char *path, char *buf, size_t size);
ssize_t __wrap_readlink(const char *path, char *buf, size_t size);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t offset);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t offset);
int __real_close(int fd);
int __wrap_close(int fd);

static int open_common(int large, const char *path, int flags, int mode) {
  if (refused(path)) {
    errno = fault_errno;
    return -1;
  }
  int fd = large ? __real_open64(path, flags, mode)
                 : __real_open(path, flags, mode);
  if (armed && eio && strcmp(path, "/proc/self/exe") == 0)
    exe_fd = fd;
  return fd;
}

int __wrap_open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
  va_end(ap);
  return open_common(0, path, flags, mode);
}

int __wrap_open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
  va_end(ap);
  return open_common(1, path, flags, mode);
}

ssize_t __wrap_readlink(const char *path, char *buf, size_t size) {
  if (refused(path)) {
    errno = fault_errno;
    return -1;
  }
  return __real_readlink(path, buf, size);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t offset) {
  if (armed && eio && fd == exe_fd && fd >= 0) {
    errno = EIO;
    return -1;
  }
  return __real_pread(fd, buf, n, offset);
}

int __wrap_close(int fd) {
  if (fd == exe_fd)
    exe_fd = -1;
  return __real_close(fd);
}

/* ---- The probes ---------------------------------------------------------- */

SDT_PROVIDER_DEFINE(fp);
SDT_PROBE_DEFINE2(fp, m, f, s, "int", "int");

JT_NOIPA void fire(int x) {
  XSDT_PROBE(fp, u, x, x * 5);
  SDT_PROBE2(fp, m, f, s, x, x * 5);
}

static int hits, bad_values;
static void on_usdt(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                    void *u) {
  (void)p, (void)u;
  ++hits;
  if (argc != 2 || (int64_t)a[1].bits != 5 * (int64_t)a[0].bits)
    ++bad_values;
}
static void on_sdt(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)p, (void)u;
  ++hits;
  if ((int)a[1] != 5 * (int)a[0])
    ++bad_values;
}

static void count_fp(const xsdt_probe_info *p, void *user) {
  if (strcmp(p->provider, "fp") == 0)
    ++*(int *)user;
}

static void print_invalid(const char *message, void *user) {
  (void)user;
  printf("invalid: %s\n", message);
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  fault_errno = strcmp(what, "eacces") == 0 ? EACCES : ENOENT;
  eio = strcmp(what, "eio") == 0;
  const int sdt_after = argc > 2 && strcmp(argv[2], "sdt-after") == 0;
  printf("fault: %s\n", what);
  xsdt_error err;

  armed = 1;
  int listed = 0;
  int all = xsdt_list(count_fp, &listed, &err);
  printf("listed: %s, fp probes %d\n", all >= 0 ? "ok" : "error", listed);
  RT_CHECK(all >= 0 && listed == 0);
  RT_CHECK(xsdt_sdt_list_invalid(print_invalid, NULL, &err) >= 0);
  int r = xsdt_enable("fp:*", on_usdt, NULL, &err);
  ft_print_result("usdt enable", r, &err);
  RT_CHECK(r == -1 && err.code == XSDT_ERR_NO_MATCH);
  r = xsdt_sdt_enable("fp:::", XSDT_MODE_AUTO, on_sdt, NULL, &err);
  ft_print_result("sdt enable", r, &err);
  RT_CHECK(r == -1 && err.code == XSDT_ERR_NO_MATCH);
  fire(3);
  armed = 0;
  printf("hits %d\n", hits);
  RT_CHECK(hits == 0);

  /* /proc is back: the USDT probe is found again, its site untouched. */
  struct rt_find f = rt_find_probe("fp", "u");
  RT_CHECK(f.count >= 1 && rt_bytes_are(f.pc[0], rt_nop));
  RT_EXPECT_RESULT(xsdt_enable("fp:*", on_usdt, NULL, &err), f.count, &err);
  fire(4);
  printf("usdt after: hits %d, values right: %s\n", hits,
         bad_values ? "NO" : "yes");
  RT_CHECK(hits == 1 && bad_values == 0);
  RT_EXPECT_RESULT(xsdt_disable("fp:*", &err), f.count, &err);
  RT_CHECK(rt_bytes_are(f.pc[0], rt_nop));
  if (sdt_after) {
    r = xsdt_sdt_enable("fp:::", XSDT_MODE_AUTO, on_sdt, NULL, &err);
    ft_print_result("sdt enable after", r, &err);
    fire(5);
    printf("sdt after: hits %d, values right: %s\n", hits - 1,
           bad_values ? "NO" : "yes");
    if (r == 1)
      RT_EXPECT_RESULT(xsdt_sdt_disable("fp:::", &err), 1, &err);
    RT_CHECK(r == 1 && hits == 2);
  }
  return rt_finish();
}
