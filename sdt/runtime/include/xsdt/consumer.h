/*
 * libxsdt consumer API: the libdtrace lifecycle, in process.
 *
 *   xsdt_hdl *h = xsdt_open(XSDT_VERSION, &err);
 *   xsdt_enable_probes(h, "ip:::receive", XSDT_MODE_AUTO);  (repeatable)
 *   xsdt_setopt(h, "bufsize", "256k");
 *   xsdt_go(h);
 *   while (...) xsdt_work(h, consume, arg);   records, oldest first per thread
 *   xsdt_stop(h);
 *   xsdt_aggregate_walk(h, visit, arg);       count() per probe
 *   xsdt_close(h);
 *
 * Probes are SDT(9) probes (<xsdt/sdt.h>, jump or trap mode) and stapsdt
 * USDT probes (<xsdt/usdt.h>, <sys/sdt.h>; trap mode only). A USDT probe's
 * id is "provider:module:function:name" with module the object's file name
 * and function the symbol holding the site. Descriptions are globs as in
 * <xsdt/sdt-runtime.h>.
 *
 * Hits are written to per-thread buffers without locks (trap-mode hits
 * from the signal handler too). A hit that finds its buffer full, or no
 * buffer left for a new thread, is dropped and counted: xsdt_drops() and
 * every xsdt_work() report them; they are never silent.
 *
 * Errors: functions return -1 (or NULL) and set the handle's error, read
 * with xsdt_errno() and xsdt_errmsg() (code plus a message naming the
 * probe, option or call).
 */
#ifndef XSDT_CONSUMER_H
#define XSDT_CONSUMER_H

#include <xsdt/sdt-runtime.h>

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XSDT_VERSION 1

typedef struct xsdt_hdl xsdt_hdl;

typedef enum xsdt_probe_kind {
  XSDT_PROBE_SDT = 1, /* <xsdt/sdt.h> jump site */
  XSDT_PROBE_USDT = 2 /* stapsdt note */
} xsdt_probe_kind;

typedef struct xsdt_probedesc {
  unsigned index; /* 0.. in enabling order, stable for the handle's life */
  const char *id; /* "prov:mod:func:name" */
  const char *provider;
  const char *module;
  const char *function;
  const char *name;
  xsdt_probe_kind kind;
  xsdt_mode mode; /* how it is enabled: XSDT_MODE_JUMP or XSDT_MODE_TRAP */
  int argc;
  /* SDT: the definition's types; USDT: the note's arg specs as types, e.g.
   * "-4@%edi"; translated_types is "" for each arg when not translated. */
  const char *const *native_types;
  const char *const *translated_types;
} xsdt_probedesc;

typedef struct xsdt_record {
  const xsdt_probedesc *probe;
  uint64_t tid;          /* kernel thread id of the thread that hit it */
  uint64_t timestamp_ns; /* CLOCK_MONOTONIC at the hit */
  int argc;
  uint64_t args[XSDT_MAX_ARGS]; /* SDT: as passed; USDT: decoded bits */
} xsdt_record;

typedef enum xsdt_consume_status {
  XSDT_CONSUME_NEXT = 0, /* go on with the next record */
  XSDT_CONSUME_ABORT = 1 /* stop this xsdt_work() call now */
} xsdt_consume_status;
typedef int xsdt_consume_f(const xsdt_record *record, void *arg);

typedef enum xsdt_workstatus {
  XSDT_WORKSTATUS_ERROR = -1,
  XSDT_WORKSTATUS_OKAY = 0, /* consumed what was there; call again */
  XSDT_WORKSTATUS_DONE = 1  /* stopped and drained: nothing will come */
} xsdt_workstatus;

/* Opens a handle. version must be XSDT_VERSION. NULL and *errp set on
 * failure. */
xsdt_hdl *xsdt_open(int version, int *errp);

/* Selects the probes matching description for this handle (before go).
 * XSDT_MODE_AUTO picks jump for SDT probes and trap for USDT probes;
 * XSDT_MODE_JUMP on a USDT probe is XSDT_ERR_BAD_MODE. Returns the number
 * of probes matched (0 is XSDT_ERR_NO_MATCH), or -1. */
int xsdt_enable_probes(xsdt_hdl *h, const char *description, xsdt_mode mode);

/* Options, before go: "bufsize" (bytes per thread buffer, with an optional
 * k/m suffix; default 64k), "nthreads" (buffers, i.e. threads that can
 * record; default 64). Returns 0 or -1 (XSDT_ERR_BAD_OPTION). */
int xsdt_setopt(xsdt_hdl *h, const char *option, const char *value);
/* The current value as text, or NULL for an unknown option. */
const char *xsdt_getopt(xsdt_hdl *h, const char *option);

/* Enables every selected probe (all-or-nothing). Returns 0 or -1. */
int xsdt_go(xsdt_hdl *h);

/* Hands every buffered record to consume, thread by thread. Returns
 * XSDT_WORKSTATUS_DONE once stopped and drained. */
xsdt_workstatus xsdt_work(xsdt_hdl *h, xsdt_consume_f *consume, void *arg);

/* Disables the probes; no record is added after it returns. The records
 * already buffered stay readable with xsdt_work(). Returns 0 or -1. */
int xsdt_stop(xsdt_hdl *h);

/* count() per probe: hits seen (recorded or dropped), in index order. */
typedef int xsdt_aggregate_f(const xsdt_probedesc *probe, uint64_t count,
                             void *arg);
int xsdt_aggregate_walk(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg);
/* Prints "  <id>  <count>" lines, largest count first. Returns 0 or -1. */
int xsdt_aggregate_print(xsdt_hdl *h, FILE *out);

/* Records dropped since go (buffer full or no buffer for the thread). */
uint64_t xsdt_drops(xsdt_hdl *h);

/* The handle's last error code and a message for a code: the handle's own
 * message when code is its last error, the generic text otherwise. */
int xsdt_errno(xsdt_hdl *h);
const char *xsdt_errmsg(xsdt_hdl *h, int code);

/* Stops if needed and frees the handle. */
void xsdt_close(xsdt_hdl *h);

#ifdef __cplusplus
}
#endif

#endif /* XSDT_CONSUMER_H */
