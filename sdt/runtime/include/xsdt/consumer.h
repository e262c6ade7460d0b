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
 * USDT probes (<xsdt/usdt.h>, <sys/sdt.h>; jump mode where libxsdt has it
 * for the arch, xsdt_usdt_jumps(), and the site is <xsdt/usdt.h>'s, trap
 * mode elsewhere). A USDT probe's
 * id is "provider:module:function:name" with module the object's file name
 * (basename; the program's own for the main program) and function the
 * symbol holding the site, read from the object file's .symtab (.dynsym
 * when stripped; "" when no symbol covers it). Sites with the same id form
 * one probe. Descriptions are globs as in <xsdt/sdt-runtime.h>.
 *
 * USDT probes are patched per "provider:name" (the trap runtime's unit):
 * enabling one patches the same-named sites of other modules or functions
 * too; their hits are ignored, not recorded or counted. A probe can be
 * enabled by one handle at a time (the runtimes refuse a second enable).
 *
 * A handle is not thread-safe: call its functions from one thread at a
 * time (the probes may fire on any thread). Callbacks must not call
 * xsdt_close().
 *
 * Hits are written to per-thread buffers without locks (trap-mode hits
 * from the signal handler too). A hit that finds its buffer full, or no
 * buffer left for a new thread, is dropped and counted: xsdt_drops() and
 * every xsdt_work() report them; they are never silent. A hit that
 * interrupts (in a signal handler) another hit of the same thread while it
 * writes to the buffer is dropped and counted the same way.
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
   * "-4@%edi" (of its first site); translated_types is "" for each arg
   * when not translated. An untyped SDT_PROBE_DEFINE has argc 0, but its
   * records carry all XSDT_SDT_MAX_ARGS arguments as passed. */
  const char *const *native_types;
  const char *const *translated_types;
} xsdt_probedesc;

typedef struct xsdt_record {
  const xsdt_probedesc *probe;
  uint64_t tid;          /* kernel thread id of the thread that hit it */
  uint64_t timestamp_ns; /* CLOCK_MONOTONIC at the hit; 0 with timestamps
                            off */
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
 * failure (XSDT_ERR_VERSION, XSDT_ERR_INTERNAL); *errp is XSDT_OK on
 * success. errp may be NULL. */
xsdt_hdl *xsdt_open(int version, int *errp);

/* Selects the probes matching description for this handle (before go).
 * XSDT_MODE_AUTO picks jump for SDT probes, and for USDT probes where
 * xsdt_usdt_jumps() (<xsdt/runtime.h>) is 1 (a USDT site that cannot jump,
 * such as sys/sdt.h's, then traps), else trap; XSDT_MODE_JUMP on a USDT
 * probe where it is 0 is XSDT_ERR_BAD_MODE. Selecting a probe
 * again keeps its index; asking for the other mode explicitly is
 * XSDT_ERR_MODE_CONFLICT. All-or-nothing per call. Returns the number of
 * probes matched, selected before or not (0 is XSDT_ERR_NO_MATCH), or -1.
 * An empty description or more than four parts is XSDT_ERR_BAD_PATTERN. */
int xsdt_enable_probes(xsdt_hdl *h, const char *description, xsdt_mode mode);

/* Options, before go: "bufsize" (bytes per thread buffer, with an optional
 * k/m suffix, 64 to 256m, used in whole 8-byte units; default 64k),
 * "nthreads" (buffers, i.e. threads that can record, 1 to 4096; default
 * 64), "hitarea" (bytes of each buffer's area for the hit function,
 * xsdt_handle_hit; 0 to 256m, k/m suffix; default 0), "timestamps" ("on",
 * the default, or "off": records then carry timestamp_ns 0 and a hit reads no clock, as DTrace records carry no
 * timestamp unless the program asks for one), "clock" ("auto", the
 * default: hits read the arch's cycle counter where this system has one
 * that holds, and the drain converts it to CLOCK_MONOTONIC; or
 * "monotonic": hits read CLOCK_MONOTONIC; a session with a hit function
 * always does). A record takes
 * 16 bytes plus 8 per argument. Returns 0 or -1 (XSDT_ERR_BAD_OPTION;
 * XSDT_ERR_BAD_STATE after go). */
int xsdt_setopt(xsdt_hdl *h, const char *option, const char *value);
/* The current value as text ("262144" after "256k"; "on" or "off"; for
 * "clock", from go on, the clock the hits read: "tsc", "monotonic"), or
 * NULL for an unknown option. Valid until the next xsdt_setopt(). */
const char *xsdt_getopt(xsdt_hdl *h, const char *option);

/* Allocates every buffer (nthreads x bufsize) and enables every selected
 * probe (all-or-nothing: on a failure what this go enabled is disabled
 * again and the handle stays configurable). Returns 0 or -1 (the
 * runtime's code, with a message naming the probe). */
int xsdt_go(xsdt_hdl *h);

/* Hands every buffered record to consume, thread by thread, each thread's
 * oldest first (consume NULL discards them). A consume result other than
 * XSDT_CONSUME_NEXT ends the drain after that record, and the call returns
 * XSDT_WORKSTATUS_OKAY; the rest stays for the next call. Either way it
 * then reports the drops since the previous call to the drop handler, if
 * any. Returns XSDT_WORKSTATUS_DONE once stopped and drained,
 * XSDT_WORKSTATUS_ERROR before go. */
xsdt_workstatus xsdt_work(xsdt_hdl *h, xsdt_consume_f *consume, void *arg);

/* Disables the probes; no record is added after it returns. The records
 * already buffered stay readable with xsdt_work(). Returns 0 or -1 (a
 * probe the runtime could not disable; the others are disabled, and the
 * handle's memory is then kept after close, since a handler may still
 * run). */
int xsdt_stop(xsdt_hdl *h);

/* count() per probe: hits seen (recorded or dropped), in index order;
 * after go (live while running: the records drained, still buffered or
 * dropped as of the call). visit returns 0 to go on, anything else ends the
 * walk. */
typedef int xsdt_aggregate_f(const xsdt_probedesc *probe, uint64_t count,
                             void *arg);
int xsdt_aggregate_walk(xsdt_hdl *h, xsdt_aggregate_f *visit, void *arg);
/* Prints "  <id>  <count>" lines, largest count first. Returns 0 or -1. */
int xsdt_aggregate_print(xsdt_hdl *h, FILE *out);

/* Records dropped since go (buffer full or no buffer for the thread). */
uint64_t xsdt_drops(xsdt_hdl *h);

/* Drop reports: xsdt_work() calls handler once per buffer whose drops
 * grew since the previous report, with the buffer's thread id (0 for the
 * hits of threads that found no free buffer) and the new drops. Nothing is
 * printed without a handler; xsdt_drops() counts either way. */
typedef void xsdt_drop_f(uint64_t tid, uint64_t drops, void *arg);
int xsdt_handle_drop(xsdt_hdl *h, xsdt_drop_f *handler, void *arg);

/* Work at the hit, as DTrace runs a clause's predicate and aggregations in
 * probe context. Before go: libxsdt calls hit at every hit of the handle's
 * probes that has a thread buffer, in the hit's own context (a trap-mode
 * hit's signal handler), before recording it. record is the hit as
 * xsdt_work() would hand it. area is the hitting thread's own "hitarea"
 * bytes (xsdt_setopt; zeroed at go, 16-byte aligned; NULL when hitarea is
 * 0): only that thread's hits write it, never two at once (a hit that
 * interrupts another hit of its thread is dropped before hit is called).
 * hit must be async-signal-safe: no lock, no allocation. It returns
 * XSDT_HIT_RECORD to record the hit, XSDT_HIT_DISCARD to leave it out (not
 * recorded, not in count(), not a drop). NULL hit: every hit is recorded. */
typedef enum xsdt_hit_status {
  XSDT_HIT_DISCARD = 0,
  XSDT_HIT_RECORD = 1
} xsdt_hit_status;
typedef int xsdt_hit_f(const xsdt_record *record, void *area, void *arg);
int xsdt_handle_hit(xsdt_hdl *h, xsdt_hit_f *hit, void *arg);

/* The hit areas of the threads that claimed a buffer (after go), in buffer
 * order, with the thread's id. While running, their threads may be writing
 * them (the caller's layout decides what is safe to read: atomics); after
 * xsdt_stop() they are final. visit returns 0 to go on. Returns 0 or -1
 * (before go, or hitarea 0: XSDT_ERR_BAD_STATE). */
typedef int xsdt_area_f(uint64_t tid, const void *area, void *arg);
int xsdt_area_walk(xsdt_hdl *h, xsdt_area_f *visit, void *arg);

/* The selected probes, in index order, at any time (before go too: a hit
 * function can prepare a table per probe). visit returns 0 to go on.
 * Returns 0 or -1. */
typedef int xsdt_probe_f(const xsdt_probedesc *probe, void *arg);
int xsdt_probe_walk(xsdt_hdl *h, xsdt_probe_f *visit, void *arg);

/* The handle's last error code (set by the last failing call; success
 * does not clear it) and a message for a code: the handle's own message
 * when code is its last error, the generic text otherwise (also for a NULL
 * handle, e.g. after xsdt_open failed). */
int xsdt_errno(xsdt_hdl *h);
const char *xsdt_errmsg(xsdt_hdl *h, int code);

/* Stops if needed and frees the handle. */
void xsdt_close(xsdt_hdl *h);

#ifdef __cplusplus
}
#endif

#endif /* XSDT_CONSUMER_H */
