/*
 * libxsdt: find, enable and decode the stapsdt probes of the running process
 * without kernel help (works under QEMU user mode).
 *
 * Trap mode: enabling a probe replaces each of its sites' NOPs with the
 * arch's trap (int3 / brk #0 / ebreak) after checking that the expected NOP
 * is there; a SIGTRAP handler decodes the arguments from the note's specs,
 * calls the handler and resumes after the site. Disabling restores the exact
 * original bytes. While a probe is enabled its semaphore is incremented.
 *
 * C API, implemented in C++. All functions are thread-safe with respect to
 * each other; handlers run in signal context on the thread that hit the site
 * and must be async-signal-safe.
 */
#ifndef XSDT_RUNTIME_H
#define XSDT_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XSDT_MAX_ARGS 12

typedef enum xsdt_status {
  XSDT_OK = 0,
  XSDT_ERR_NO_MATCH = 1,      /* the pattern matched no probe */
  XSDT_ERR_BAD_PATTERN = 2,   /* the pattern is not "provider:name" globs */
  XSDT_ERR_BAD_NOTE = 3,      /* a malformed stapsdt note */
  XSDT_ERR_BAD_SPEC = 4,      /* an argument spec that cannot be decoded */
  XSDT_ERR_UNEXPECTED_BYTES = 5, /* a site does not hold the expected NOP */
  XSDT_ERR_ALREADY_ENABLED = 6,
  XSDT_ERR_NOT_ENABLED = 7,
  XSDT_ERR_PROTECT = 8,       /* mprotect failed (e.g. W^X policy) */
  XSDT_ERR_SIGNAL = 9,        /* installing the SIGTRAP handler failed */
  XSDT_ERR_INTERNAL = 10,
  XSDT_ERR_MODE_CONFLICT = 11, /* a site is already enabled the other way */
  XSDT_ERR_BAD_MODE = 12,      /* e.g. jump mode asked for a USDT probe */
  XSDT_ERR_BAD_OPTION = 13,    /* unknown consumer option or bad value */
  XSDT_ERR_BAD_STATE = 14,     /* consumer call out of lifecycle order */
  XSDT_ERR_VERSION = 15        /* consumer API version mismatch */
} xsdt_status;

typedef struct xsdt_error {
  xsdt_status code;
  char message[256]; /* names the probe, site and reason */
} xsdt_error;

typedef struct xsdt_probe_info {
  const char *provider;
  const char *name;
  const char *args;     /* the raw spec string from the note */
  const char *object;   /* file of the loaded object ("" for the main program) */
  uintptr_t pc;         /* run-time address of the site */
  uintptr_t semaphore;  /* run-time address of the semaphore, or 0 */
  int argc;
  /* Added: in a handler's info, 1 when the hit came through a jump site
   * (xsdt_enable_jump): the handler runs on the thread, and xsdt_disable
   * returns only once it has returned; 0 for a trap-mode hit (in the signal
   * handler, which may still run after xsdt_disable returned) and in
   * xsdt_list's. */
  int jumped;
} xsdt_probe_info;

typedef struct xsdt_arg {
  /* The value as the spec describes it: `size` bytes, sign- or zero-
   * extended to 64 bits per the spec's sign; for `f` specs the IEEE bits
   * (zero-extended) and `as_double` holds the converted value. */
  uint64_t bits;
  double as_double;
  int size;
  int is_signed;
  int is_float;
  /* Added: 1 when the value was read; 0 when its memory was unreadable
   * (bits and as_double are then 0). */
  int valid;
} xsdt_arg;

typedef void (*xsdt_probe_visitor)(const xsdt_probe_info *probe, void *user);

/* Handler for a hit: the probe, its decoded arguments. Signal context. */
typedef void (*xsdt_probe_handler)(const xsdt_probe_info *probe, int argc,
                                   const xsdt_arg *args, void *user);

/* Calls visit for every probe site of the main program and of every loaded
 * shared object. Returns the number of sites, or -1 and fills err. */
int xsdt_list(xsdt_probe_visitor visit, void *user, xsdt_error *err);

/* Enables, in trap mode, every site whose "provider:name" matches pattern
 * (fnmatch globs on each part; "*" or "*:*" for all). All-or-nothing: on
 * any error no site stays patched. Returns the number of sites enabled, or
 * -1 and fills err. */
int xsdt_enable(const char *pattern, xsdt_probe_handler handler, void *user,
                xsdt_error *err);

/* As xsdt_enable, in jump mode where the site allows it: a site of
 * <xsdt/usdt.h> on an arch where xsdt_usdt_jumps() is 1 is patched into a
 * branch to a stub that libxsdt writes near the code, which saves the
 * registers, runs the handler on the thread (not in signal context; it
 * must still be async-signal-safe, since other sites trap) and resumes
 * after the site. Other sites (sys/sdt.h's, a stub out of reach) are
 * enabled in trap mode. xsdt_disable returns once no handler of the sites
 * it disabled in jump mode runs. */
int xsdt_enable_jump(const char *pattern, xsdt_probe_handler handler,
                     void *user, xsdt_error *err);

/* 1 when this libxsdt has a jump mode for USDT sites on its arch, else 0. */
int xsdt_usdt_jumps(void);

/* Restores the original bytes of every enabled site matching pattern and
 * drops their semaphore counts. Returns the number of sites disabled, or -1
 * and fills err. */
int xsdt_disable(const char *pattern, xsdt_error *err);

/* Human-readable name of a status code. */
const char *xsdt_status_name(xsdt_status code);

/* The trap signal (SIGTRAP; SIGILL for riscv64's race signal too) belongs
 * to libxsdt once it writes its first trap: its handler runs the probes'
 * handlers and forwards every trap that is not a probe's to the
 * disposition it replaced. A program that handles the signal itself:
 *  - installs its handler before the first enable (it is then forwarded
 *    to), or afterwards through xsdt_set_trap_forward(), never with
 *    sigaction() directly;
 *  - if it replaces libxsdt's handler anyway, probe traps reach the
 *    program's handler instead (hits are lost, and a trap at a site the
 *    program does not know about is fatal). libxsdt detects it: every
 *    enable, and every disable that writes a trap, then fails with
 *    XSDT_ERR_SIGNAL before writing anything; xsdt_check_trap_handler()
 *    says so at any time; a consumer's xsdt_work() reports it. */

/* Sets what libxsdt forwards the traps that are not a probe's to, as
 * sigaction(2) would set the disposition of signo (SIGTRAP, or the arch's
 * race signal); old, if not null, receives the previous one. Before the
 * first enable it is sigaction() itself. Returns 0, or -1 and fills err
 * (XSDT_ERR_SIGNAL for a signal libxsdt does not handle). */
struct sigaction; /* <signal.h>; declared here so that strict C99 works */
int xsdt_set_trap_forward(int signo, const struct sigaction *act,
                          struct sigaction *old, xsdt_error *err);

/* 0 when libxsdt's trap handler is the one installed (or none is needed
 * yet); -1 and XSDT_ERR_SIGNAL, naming the signal, when the program
 * replaced it after libxsdt installed it. */
int xsdt_check_trap_handler(xsdt_error *err);

/* Objects loaded after an enable (dlopen) get the probes the enablings in
 * force give them: objects built with <xsdt/usdt.h> or <xsdt/sdt.h> while
 * dlopen runs, others (SystemTap's <sys/sdt.h>) at the next API call. A
 * failure there (foreign bytes, an argument spec that cannot be decoded)
 * leaves that object unpatched and is kept: this returns how many happened
 * since the last call (0: none) and fills err with the first. */
int xsdt_late_error(xsdt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* XSDT_RUNTIME_H */
