/* The program's own file replaced on disk by another build (same layout,
 * other code and probe names: -DPROBE=hop -DDELTA=2) while it runs.
 * Discovery reads the program through /proc/self/exe. Natively that is
 * the file the kernel loaded, whatever happened to its name since, so the
 * probes are found and fire with the values the source passed. An
 * emulator may open the program's path again instead (QEMU user mode does
 * unless it was given the file by the kernel): then the file read is the
 * replacement, and nothing of it may be trusted: no probe of the program
 * is listed, enabling is XSDT_ERR_NO_MATCH, and xsdt_sdt_list_invalid says
 * why. The program tells the two cases apart itself (the inode of
 * /proc/self/exe against the one it was started from) and checks the one
 * it is in.
 *
 * Usage: exe NEW OWN-PATH (renames NEW over OWN-PATH first) */
#include "fault-test.h"

#include <fcntl.h>
#include <sys/stat.h>

#ifndef PROBE
#define PROBE hit
#endif
#ifndef DELTA
#define DELTA 1
#endif

SDT_PROVIDER_DEFINE(fx);
SDT_PROBE_DEFINE1(fx, m, f, PROBE, "int");

JT_NOIPA void fire(int x) {
  XSDT_PROBE(fx, PROBE, x + DELTA);
  SDT_PROBE1(fx, m, f, PROBE, x + DELTA);
}

static int hits;
static int64_t last;
static void on_usdt(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                    void *u) {
  (void)p, (void)u;
  ++hits;
  last = argc > 0 ? (int64_t)a[0].bits : -1;
}
static void on_sdt(const xsdt_sdt_probe_info *p, const uint64_t *a, void *u) {
  (void)p, (void)u;
  ++hits;
  last = (int)a[0];
}

static void count_fx(const xsdt_probe_info *p, void *user) {
  if (strcmp(p->provider, "fx") == 0) {
    printf("listed: fx:%s\n", p->name);
    ++*(int *)user;
  }
}

static void count_replaced(const char *message, void *user) {
  if (strstr(message, "not the loaded object"))
    ++*(int *)user;
}

int main(int argc, char **argv) {
  struct stat loaded, now;
  if (argc < 3 || stat(argv[2], &loaded) != 0 || rename(argv[1], argv[2])) {
    perror("usage: exe NEW OWN-PATH");
    return 2;
  }
  int fd = open("/proc/self/exe", O_RDONLY);
  const int same = fd >= 0 && fstat(fd, &now) == 0 &&
                   now.st_ino == loaded.st_ino && now.st_dev == loaded.st_dev;
  if (fd >= 0)
    close(fd);
  xsdt_error err;
  int listed = 0, replaced = 0;
  RT_CHECK(xsdt_list(count_fx, &listed, &err) >= 0);
  RT_CHECK(xsdt_sdt_list_invalid(count_replaced, &replaced, &err) >= 0);
  int u = xsdt_enable("fx:*", on_usdt, NULL, &err);
  int s = xsdt_sdt_enable("fx:::", XSDT_MODE_AUTO, on_sdt, NULL, &err);
  fire(40);
  int ok;
  if (same) {
    ok = listed == 1 && replaced == 0 && u == 1 && s == 1 && hits == 2 &&
         last == 41;
    if (u == 1)
      RT_EXPECT_RESULT(xsdt_disable("fx:*", &err), 1, &err);
    if (s == 1)
      RT_EXPECT_RESULT(xsdt_sdt_disable("fx:::", &err), 1, &err);
  } else {
    ok = listed == 0 && replaced >= 1 && u == -1 && s == -1 && hits == 0;
  }
  printf("the program's probes are trusted exactly when /proc/self/exe is "
         "the loaded file: %s\n",
         ok ? "yes" : "NO");
  fprintf(stderr, "/proc/self/exe: %s; listed %d, replaced %d, enable %d %d, "
                  "hits %d, last %lld\n",
          same ? "the loaded file" : "the replacement", listed, replaced, u,
          s, hits, (long long)last);
  RT_CHECK(ok);
  return rt_finish();
}
