/*
 * libxsdt, SDT(9) part: find, enable and disable the jump sites of the
 * probes defined with <xsdt/sdt.h>, in the running process.
 *
 * Probe ids are "prov:mod:func:name" (see <xsdt/sdt.h> for the defaults).
 * Patterns are DTrace probe descriptions: up to four colon-separated parts,
 * each an fnmatch glob; an empty part matches anything, and a description
 * with fewer than four parts names the last ones ("name", "func:name",
 * "mod:func:name").
 *
 * Modes:
 *   XSDT_MODE_JUMP  the site's NOP becomes a jump to the out-of-line block
 *                   (x86: e9 rel32 with the int3-first protocol; aarch64: b;
 *                   riscv64: jal x0), which calls the handler directly;
 *   XSDT_MODE_TRAP  the site's NOP becomes the arch's trap; the SIGTRAP
 *                   handler resumes at the out-of-line block (slow path,
 *                   for comparison and for tools that cannot write jumps);
 *   XSDT_MODE_AUTO  jump where the record allows it, which it always does
 *                   for a valid record.
 * Jump and trap mode never fight: a site enabled one way must be disabled
 * before it can be enabled the other way (XSDT_ERR_MODE_CONFLICT).
 *
 * Every write checks the expected old bytes first; disable restores the
 * exact original NOP. Site records that fail validation at registration
 * (alignment, reach, the expected NOP, addresses inside the object) are
 * reported by xsdt_sdt_list_invalid() and never patched.
 *
 * Handlers run on the thread that hit the site, in normal (not signal)
 * context, in both modes. When xsdt_sdt_disable() returns, no handler of
 * the disabled probes is running or will run.
 */
#ifndef XSDT_SDT_RUNTIME_H
#define XSDT_SDT_RUNTIME_H

#include <xsdt/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

struct xsdt_sdt_probe;

typedef enum xsdt_mode {
  XSDT_MODE_AUTO = 0, /* in site info: not enabled */
  XSDT_MODE_JUMP = 1,
  XSDT_MODE_TRAP = 2
} xsdt_mode;

#define XSDT_SDT_MAX_ARGS 7

typedef struct xsdt_sdt_probe_info {
  const char *id; /* "prov:mod:func:name", defaults applied, "__" -> "-" */
  const char *provider;
  const char *module;
  const char *function;
  const char *name;
  const char *object; /* file of the defining object ("" main program) */
  int argc;
  int typed;      /* 0 for SDT_PROBE_DEFINE (no types) */
  int translated; /* 1 for the _XLATE definitions */
  const char *const *native_types;     /* argc strings */
  const char *const *translated_types; /* argc strings, "" if not _XLATE */
  int nsites;                          /* valid sites of this probe */
  const struct xsdt_sdt_probe *probe;  /* the probe object in memory */
} xsdt_sdt_probe_info;

typedef struct xsdt_sdt_site_info {
  const xsdt_sdt_probe_info *probe;
  uintptr_t site;       /* run-time address of the NOP */
  uintptr_t target;     /* run-time address of the out-of-line block */
  const char *function; /* the symbol holding the site ("" if none) */
  xsdt_mode state;      /* XSDT_MODE_JUMP, _TRAP, or 0: disabled */
} xsdt_sdt_site_info;

typedef void (*xsdt_sdt_probe_visitor)(const xsdt_sdt_probe_info *probe,
                                       void *user);
typedef void (*xsdt_sdt_site_visitor)(const xsdt_sdt_site_info *site,
                                      void *user);
typedef void (*xsdt_sdt_invalid_visitor)(const char *message, void *user);

/* Every SDT probe of the loaded objects. Returns their number or -1. */
int xsdt_sdt_list(xsdt_sdt_probe_visitor visit, void *user, xsdt_error *err);
/* Every valid site record. Returns their number or -1. */
int xsdt_sdt_list_sites(xsdt_sdt_site_visitor visit, void *user,
                        xsdt_error *err);
/* Every record that failed validation, one message each (object, record
 * address, reason). Returns their number or -1. */
int xsdt_sdt_list_invalid(xsdt_sdt_invalid_visitor visit, void *user,
                          xsdt_error *err);

/* A hit: the probe and its XSDT_SDT_MAX_ARGS arguments as passed to
 * xsdt_sdt_fire (unused ones are 0). */
typedef void (*xsdt_sdt_handler)(const xsdt_sdt_probe_info *probe,
                                 const uint64_t *args, void *user);

/* Enables every valid site of every probe matching pattern. All-or-nothing.
 * Returns the number of probes enabled, or -1 and fills err. */
int xsdt_sdt_enable(const char *pattern, xsdt_mode mode,
                    xsdt_sdt_handler handler, void *user, xsdt_error *err);

/* Disables the enabled probes matching pattern, restores their sites and
 * waits until no handler of theirs is running. Returns the number of
 * probes disabled, or -1 and fills err. */
int xsdt_sdt_disable(const char *pattern, xsdt_error *err);

/* Counters of the code patcher since the process started: what the tests
 * check to prove batching (one mprotect per page run) and cache flushes. */
typedef struct xsdt_patch_stats {
  uint64_t sites_written;   /* site writes (a jump, trap or NOP each) */
  uint64_t mprotect_calls;  /* mprotect() calls on code pages */
  uint64_t icache_flushes;  /* machdep flush_icache calls */
  uint64_t serializations;  /* all-thread serializations (x86 protocol) */
} xsdt_patch_stats;
void xsdt_get_patch_stats(xsdt_patch_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* XSDT_SDT_RUNTIME_H */
