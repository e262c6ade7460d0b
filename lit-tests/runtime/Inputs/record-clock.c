/* Record timestamps against the program's own clock: each of HITS hits of
 * an SDT probe (jump mode) is taken between two CLOCK_MONOTONIC reads, and
 * its record's timestamp must lie between them, in order, whichever clock
 * the session's hits read ("clock" auto: the arch's cycle counter where
 * the record clock takes it, converted when drained; or monotonic). The
 * values come from the source (the hit's index), the bounds from the
 * program's clock reads: neither from the record clock.
 *
 * Usage: record-clock auto|monotonic */
#include "rt-test.h"

#include <xsdt/consumer.h>
#include <xsdt/sdt.h>

#include <string.h>
#include <time.h>

SDT_PROVIDER_DEFINE(rc);
SDT_PROBE_DEFINE1(rc, c, f, hit, "long");

#define HITS 2000

__attribute__((noinline)) void fire_hit(long value) {
  SDT_PROBE1(rc, c, f, hit, value);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t before[HITS], after[HITS];

struct seen {
  long records, outside, backwards, wrong;
  uint64_t last;
};

static int consume(const xsdt_record *r, void *arg) {
  struct seen *s = (struct seen *)arg;
  long i = s->records++;
  if (r->argc != 1 || r->args[0] != (uint64_t)i || i >= HITS) {
    ++s->wrong;
    return XSDT_CONSUME_NEXT;
  }
  if (r->timestamp_ns < before[i] || r->timestamp_ns > after[i]) {
    if (s->outside++ < 5)
      printf("FAIL record %ld at %llu, outside [%llu, %llu]\n", i,
             (unsigned long long)r->timestamp_ns,
             (unsigned long long)before[i], (unsigned long long)after[i]);
  }
  if (r->timestamp_ns < s->last)
    ++s->backwards;
  s->last = r->timestamp_ns;
  return XSDT_CONSUME_NEXT;
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "auto") && strcmp(argv[1], "monotonic"))) {
    printf("usage: record-clock auto|monotonic\n");
    return 2;
  }
  xsdt_hdl *h = xsdt_open(XSDT_VERSION, NULL);
  RT_CHECK(h != NULL);
  if (!h)
    return rt_finish();
  RT_CHECK(xsdt_enable_probes(h, "rc:::hit", XSDT_MODE_JUMP) == 1);
  RT_CHECK(xsdt_setopt(h, "clock", argv[1]) == 0);
  RT_CHECK(xsdt_setopt(h, "bufsize", "256k") == 0);
  RT_CHECK(xsdt_go(h) == 0);
  const char *clock = xsdt_getopt(h, "clock");
  for (long i = 0; i < HITS; ++i) {
    before[i] = now_ns();
    fire_hit(i);
    after[i] = now_ns();
  }
  RT_CHECK(xsdt_stop(h) == 0);
  struct seen s;
  memset(&s, 0, sizeof s);
  xsdt_workstatus status = XSDT_WORKSTATUS_OKAY;
  for (int k = 0; k < 10 && status == XSDT_WORKSTATUS_OKAY; ++k)
    status = xsdt_work(h, consume, &s);
  RT_CHECK(status == XSDT_WORKSTATUS_DONE);
  /* The arch's counter's name, or monotonic: printed for the log. */
  printf("clock %s: %s\n", argv[1], clock ? clock : "(null)");
  printf("records %ld of %d, outside their clock reads %ld, backwards %ld, "
         "wrong %ld, drops %llu\n",
         s.records, HITS, s.outside, s.backwards, s.wrong,
         (unsigned long long)xsdt_drops(h));
  RT_CHECK(clock != NULL &&
           (strcmp(argv[1], "monotonic") != 0 ||
            strcmp(clock, "monotonic") == 0));
  xsdt_close(h);
  return rt_finish();
}
