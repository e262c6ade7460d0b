/* The consumer API from C: a small tracer of its own SDT and USDT probes,
 * compiled as C to prove that <xsdt/consumer.h> (and the probe headers) are
 * C. Exits 0 when every record carries the values passed below, non-zero
 * with a message naming the mismatch otherwise. */
#include <xsdt/consumer.h>
#include <xsdt/sdt.h>
#include <xsdt/usdt.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

SDT_PROVIDER_DEFINE(cprog);
SDT_PROBE_DEFINE2(cprog, , main, tick, "int", "const char *");

static const char kWord[] = "tick";

__attribute__((noinline)) static void tick(int i, const char *word) {
  SDT_PROBE2(cprog, , main, tick, i, word);
}

__attribute__((noinline)) static void beat(long value) {
  XSDT_PROBE(cusdt, beat, value);
}

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);       \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

struct seen {
  int ticks, beats;
};

static int consume(const xsdt_record *r, void *arg) {
  struct seen *seen = arg;
  if (strcmp(r->probe->name, "tick") == 0) {
    CHECK(r->probe->kind == XSDT_PROBE_SDT);
    CHECK(r->argc == 2);
    CHECK(r->args[0] == (uint64_t)(int64_t)(seen->ticks - 1));
    CHECK(r->args[1] == (uint64_t)(uintptr_t)(kWord + seen->ticks));
    ++seen->ticks;
  } else {
    CHECK(strcmp(r->probe->name, "beat") == 0);
    CHECK(r->probe->kind == XSDT_PROBE_USDT);
    CHECK(strcmp(r->probe->function, "beat") == 0);
    CHECK(r->argc == 1);
    CHECK(r->args[0] == (uint64_t)(int64_t)(-1000L * (seen->beats + 1)));
    ++seen->beats;
  }
  return XSDT_CONSUME_NEXT;
}

static int visit(const xsdt_probedesc *probe, uint64_t count, void *arg) {
  (void)arg;
  CHECK(count == (strcmp(probe->name, "tick") == 0 ? 3u : 2u));
  return 0;
}

int main(void) {
  int err = -1;
  CHECK(xsdt_open(XSDT_VERSION + 1, &err) == NULL);
  CHECK(err == XSDT_ERR_VERSION);

  xsdt_hdl *h = xsdt_open(XSDT_VERSION, &err);
  if (!h) {
    fprintf(stderr, "xsdt_open: %s\n", xsdt_errmsg(NULL, err));
    return 1;
  }
  /* Any int can reach the API from C. */
  CHECK(xsdt_enable_probes(h, "tick", (xsdt_mode)7) == -1);
  CHECK(xsdt_errno(h) == XSDT_ERR_BAD_MODE);
  if (xsdt_enable_probes(h, "cprog:::tick", XSDT_MODE_AUTO) != 1 ||
      xsdt_enable_probes(h, "cusdt:::beat", XSDT_MODE_AUTO) != 1 ||
      xsdt_setopt(h, "bufsize", "4k") != 0 || xsdt_go(h) != 0) {
    fprintf(stderr, "setup: %s\n", xsdt_errmsg(h, xsdt_errno(h)));
    xsdt_close(h);
    return 1;
  }
  for (int i = 0; i < 3; ++i) {
    tick(i - 1, kWord + i);
    if (i < 2)
      beat(-1000L * (i + 1));
  }
  struct seen seen = {0, 0};
  CHECK(xsdt_work(h, consume, &seen) == XSDT_WORKSTATUS_OKAY);
  CHECK(xsdt_stop(h) == 0);
  CHECK(xsdt_work(h, consume, &seen) == XSDT_WORKSTATUS_DONE);
  CHECK(seen.ticks == 3 && seen.beats == 2);
  CHECK(xsdt_drops(h) == 0);
  CHECK(xsdt_aggregate_walk(h, visit, NULL) == 0);
  CHECK(xsdt_aggregate_print(h, stdout) == 0);
  xsdt_close(h);
  printf("consumer_c_test: %d records, %d failures\n", seen.ticks + seen.beats,
         failures);
  return failures != 0;
}
