/*
 * The value oracle's checker: enables the program's probes through libxsdt
 * (trap mode), compares every decoded argument with the expectation the
 * ORACLE_* macros recorded from the source's own values, and reports at
 * exit. See oracle.h. C++ programs compile this file as C++
 * (`-x c++ oracle.c -x none`).
 *
 * Self-test: ORACLE_FAULT=provider:name:argN in the environment makes the
 * oracle expect a wrong value for that argument (the lowest bit flipped, or
 * 1 added to a float), to show that a wrong decode is caught and reported.
 *
 * The handler runs in signal context: it only reads the thread's
 * expectation and writes fixed-size static tables with atomic operations;
 * nothing is printed until exit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "oracle.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xsdt/runtime.h>

#ifdef __cplusplus
#define ORACLE_EXTERN_C extern "C"
#else
#define ORACLE_EXTERN_C
#endif
#define ORACLE_TLS __thread

#ifndef ORACLE_CELL
#define ORACLE_CELL ""
#endif

#define ORACLE_NAME_MAX 64
#define ORACLE_SPEC_MAX 48
#define ORACLE_MAX_SITES 4096
#define ORACLE_MAX_FAILURES 64
#define ORACLE_MAX_UNREACHED 32
#define ORACLE_MAX_PATTERNS 32

/* ---- Thread-local expectation -------------------------------------------- */

enum { EXPECT_IDLE = 0, EXPECT_ARMED = 1, EXPECT_HIT = 2 };

struct expectation {
  volatile int state;
  const char *provider;
  const char *name;
  int argc;
  oracle_value args[ORACLE_MAX_ARGS];
};

static ORACLE_TLS struct expectation expect_;

/* ---- Static tables, written from signal handlers ----------------------------- */

enum failure_kind {
  FAIL_MISMATCH = 1,  /* an argument's value, or its spec against the C type */
  FAIL_WRONG_PROBE,   /* the hit is another probe (or argc) than expected */
  FAIL_UNEXPECTED,    /* a hit without an expectation */
  FAIL_NO_HIT,        /* an expectation without a hit */
  FAIL_NEVER_HIT,     /* an enabled site that was never hit */
  FAIL_RUNTIME        /* the runtime reported an error */
};

struct failure {
  volatile int ready;
  int kind;
  char provider[ORACLE_NAME_MAX];
  char name[ORACLE_NAME_MAX];
  char spec[ORACLE_SPEC_MAX];
  char detail[512]; /* FAIL_RUNTIME, FAIL_WRONG_PROBE */
  int arg;
  uintptr_t pc;
  /* FAIL_MISMATCH: what was compared. */
  int what;         /* 0 value, 1 spec vs type, 2 float bits, 3 unreadable,
                       4 a float's value as the bits of an integer spec */
  int spec_signed;  /* print integers with the spec's sign */
  int exp_is_float, got_is_float;
  uint64_t exp_bits, got_bits;
  double exp_real, got_real;
  int exp_size, got_size, exp_signed, got_signed;
};

static struct failure failures_[ORACLE_MAX_FAILURES];
static unsigned failure_count_;  /* all failures, also those not stored */
static unsigned mismatch_count_; /* FAIL_MISMATCH and FAIL_WRONG_PROBE */
/* Word-sized: the probe handler bumps them, and 8-byte atomics take a lock
 * where the ISA has no 8-byte atomics, which a trap handler could wait on. */
static unsigned long args_verified_;
static unsigned long hits_;
static unsigned long expectations_;

/* Distinct site pcs hit with an expectation (open addressing, 0 = empty). */
static uintptr_t hit_pcs_[ORACLE_MAX_SITES];
static unsigned hit_sites_;

/* Sites enabled through the oracle, from xsdt_list after each enable. */
struct site {
  uintptr_t pc;
  char provider[ORACLE_NAME_MAX];
  char name[ORACLE_NAME_MAX];
};
static struct site sites_[ORACLE_MAX_SITES];
static unsigned site_count_;
static long enabled_total_; /* sum of xsdt_enable's results */

static char unreached_[ORACLE_MAX_UNREACHED][2][ORACLE_NAME_MAX];
static unsigned unreached_count_;

static char patterns_[ORACLE_MAX_PATTERNS][2 * ORACLE_NAME_MAX + 2];
static unsigned pattern_count_;

static int started_;
static int stopped_;

/* ORACLE_FAULT: the argument whose expectation is made wrong on purpose. */
static char fault_provider_[ORACLE_NAME_MAX];
static char fault_name_[ORACLE_NAME_MAX];
static int fault_arg_ = -1;

/* ---- Async-signal-safe helpers ---------------------------------------------- */

static int str_eq(const char *a, const char *b) {
  if (!a || !b)
    return a == b;
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

static void str_copy(char *dst, size_t cap, const char *src) {
  size_t i = 0;
  if (src)
    for (; src[i] && i + 1 < cap; i++)
      dst[i] = src[i];
  dst[i] = '\0';
}

/* The end of the spec that starts at p: the next space outside brackets
 * (aarch64's [sp, 16] and armhf's [r3, #8] hold one). */
static const char *spec_end(const char *p) {
  int depth = 0;
  for (; *p && (*p != ' ' || depth > 0); p++)
    depth += (*p == '[') - (*p == ']');
  return p;
}

/* The index-th space-separated spec of a note's argument string. */
static void spec_copy(char *dst, size_t cap, const char *args, int index) {
  const char *p = args ? args : "";
  size_t n = 0;
  int i = 0;
  while (*p == ' ')
    p++;
  while (*p && i < index) {
    p = spec_end(p);
    while (*p == ' ')
      p++;
    i++;
  }
  const char *end = spec_end(p);
  while (p + n < end && n + 1 < cap) {
    dst[n] = p[n];
    n++;
  }
  dst[n] = '\0';
}

static struct failure *new_failure(int kind, const char *provider,
                                   const char *name) {
  unsigned i = __atomic_fetch_add(&failure_count_, 1, __ATOMIC_SEQ_CST);
  struct failure *f;
  if (kind == FAIL_MISMATCH || kind == FAIL_WRONG_PROBE)
    __atomic_fetch_add(&mismatch_count_, 1, __ATOMIC_SEQ_CST);
  if (i >= ORACLE_MAX_FAILURES)
    return NULL;
  f = &failures_[i];
  f->kind = kind;
  str_copy(f->provider, sizeof f->provider, provider);
  str_copy(f->name, sizeof f->name, name);
  return f;
}

static void publish(struct failure *f) {
  if (f)
    __atomic_store_n(&f->ready, 1, __ATOMIC_RELEASE);
}

static void note_hit_pc(uintptr_t pc) {
  unsigned h = (unsigned)((pc >> 2) * 2654435761u) % ORACLE_MAX_SITES;
  unsigned probes;
  for (probes = 0; probes < ORACLE_MAX_SITES; probes++) {
    uintptr_t *slot = &hit_pcs_[(h + probes) % ORACLE_MAX_SITES];
    uintptr_t seen = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (seen == pc)
      return;
    if (seen == 0) {
      uintptr_t empty = 0;
      if (__atomic_compare_exchange_n(slot, &empty, pc, 0, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST)) {
        __atomic_fetch_add(&hit_sites_, 1, __ATOMIC_SEQ_CST);
        return;
      }
      if (empty == pc)
        return;
    }
  }
}

static int was_hit(uintptr_t pc) {
  unsigned h = (unsigned)((pc >> 2) * 2654435761u) % ORACLE_MAX_SITES;
  unsigned probes;
  for (probes = 0; probes < ORACLE_MAX_SITES; probes++) {
    uintptr_t seen = hit_pcs_[(h + probes) % ORACLE_MAX_SITES];
    if (seen == pc)
      return 1;
    if (seen == 0)
      return 0;
  }
  return 0;
}

/* The expected integer as the spec describes it: truncated to the spec's
 * size, then sign- or zero-extended with the spec's sign. */
static uint64_t as_spec(uint64_t value, int size, int is_signed) {
  int bits = size * 8;
  if (size <= 0 || size >= 8)
    return value;
  value &= (UINT64_C(1) << bits) - 1;
  if (is_signed && (value >> (bits - 1)) & 1)
    value |= ~((UINT64_C(1) << bits) - 1);
  return value;
}

static uint64_t double_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

static uint64_t float_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static void mismatch(const xsdt_probe_info *probe, int i, int what,
                     const oracle_value *exp, const xsdt_arg *got) {
  struct failure *f = new_failure(FAIL_MISMATCH, probe->provider, probe->name);
  if (!f)
    return;
  f->arg = i;
  f->pc = probe->pc;
  f->what = what;
  spec_copy(f->spec, sizeof f->spec, probe->args, i);
  f->spec_signed = got->is_signed;
  f->exp_is_float = exp->kind == ORACLE_KIND_FLOAT;
  f->got_is_float = got->is_float;
  f->exp_bits = exp->bits;
  f->exp_real = exp->real;
  f->got_bits = got->bits;
  f->got_real = got->as_double;
  f->exp_size = exp->size;
  f->exp_signed = exp->is_signed;
  f->got_size = got->size;
  f->got_signed = got->is_signed;
  if (what == 0 && !f->exp_is_float && !f->got_is_float)
    f->exp_bits = as_spec(exp->bits, got->size, got->is_signed);
  if (what == 2 || what == 4)
    f->exp_bits = got->size == 4 ? float_bits((float)exp->real)
                                 : double_bits(exp->real);
  if (what == 4) {
    /* The decoded integer is the value's IEEE bits. */
    if (got->size == 4) {
      float v;
      uint32_t b = (uint32_t)got->bits;
      memcpy(&v, &b, sizeof v);
      f->got_real = v;
    } else {
      memcpy(&f->got_real, &got->bits, sizeof f->got_real);
    }
  }
  publish(f);
}

static void check_arg(const xsdt_probe_info *probe, int i,
                      const oracle_value *truth, const xsdt_arg *got) {
  oracle_value faulty = *truth;
  const oracle_value *exp = truth;
  int exp_float = exp->kind == ORACLE_KIND_FLOAT;
  __atomic_fetch_add(&args_verified_, 1, __ATOMIC_SEQ_CST);
  if (i == fault_arg_ && str_eq(probe->provider, fault_provider_) &&
      str_eq(probe->name, fault_name_)) {
    faulty.bits ^= 1;
    faulty.real += 1.0;
    exp = &faulty;
  }

  if (!got->valid) {
    mismatch(probe, i, 3, exp, got);
    return;
  }
  /* The spec's size, sign and `f` against the argument's C type. A float or
   * double has either an `f` spec (sys/sdt.h's) or an unsigned integer spec
   * of its size, its IEEE bits (xsdt's default, which every consumer reads). */
  if (got->size != exp->size || !got->is_signed != !exp->is_signed ||
      (!got->is_float != !exp_float && !(exp_float && !got->is_signed))) {
    mismatch(probe, i, 1, exp, got);
    return;
  }
  if (exp_float && !got->is_float) {
    uint64_t bits = got->size == 4 ? float_bits((float)exp->real)
                                   : double_bits(exp->real);
    if (got->bits != bits)
      mismatch(probe, i, 4, exp, got);
    return;
  }
  if (exp_float) {
    int same = exp->real == got->as_double ||
               (isnan(exp->real) && isnan(got->as_double));
    uint64_t bits = got->size == 4 ? float_bits((float)exp->real)
                                   : double_bits(exp->real);
    if (!same)
      mismatch(probe, i, 0, exp, got);
    else if (got->bits != bits && !isnan(exp->real))
      mismatch(probe, i, 2, exp, got);
    return;
  }
  if (got->bits != as_spec(exp->bits, got->size, got->is_signed))
    mismatch(probe, i, 0, exp, got);
}

static void handler(const xsdt_probe_info *probe, int argc,
                    const xsdt_arg *args, void *user) {
  struct expectation *e = &expect_;
  int i;
  (void)user;
  __atomic_fetch_add(&hits_, 1, __ATOMIC_SEQ_CST);
  if (e->state != EXPECT_ARMED) {
    struct failure *f = new_failure(FAIL_UNEXPECTED, probe->provider,
                                    probe->name);
    if (f) {
      f->pc = probe->pc;
      str_copy(f->detail, sizeof f->detail,
               e->state == EXPECT_HIT ? "second hit for one expectation"
                                      : "no expectation recorded");
    }
    publish(f);
    return;
  }
  e->state = EXPECT_HIT;
  if (!str_eq(probe->provider, e->provider) || !str_eq(probe->name, e->name) ||
      argc != e->argc || probe->argc != e->argc) {
    struct failure *f = new_failure(FAIL_WRONG_PROBE, probe->provider,
                                    probe->name);
    if (f) {
      /* "expected P:N with A args" without snprintf */
      char *d = f->detail;
      size_t cap = sizeof f->detail, n;
      str_copy(d, cap, e->provider);
      n = strlen(d);
      str_copy(d + n, cap - n, ":");
      n = strlen(d);
      str_copy(d + n, cap - n, e->name);
      n = strlen(d);
      if (n + 4 < cap) {
        d[n++] = ' ';
        d[n++] = (char)('0' + e->argc / 10);
        d[n++] = (char)('0' + e->argc % 10);
        d[n] = '\0';
      }
      f->pc = probe->pc;
      f->arg = argc;
    }
    publish(f);
    return;
  }
  note_hit_pc(probe->pc);
  for (i = 0; i < argc && i < ORACLE_MAX_ARGS; i++)
    check_arg(probe, i, &e->args[i], &args[i]);
}

/* ---- Recording (ordinary context) ------------------------------------------ */

ORACLE_EXTERN_C void oracle_expect_begin_(const char *provider,
                                          const char *name, int argc) {
  struct expectation *e = &expect_;
  e->state = EXPECT_IDLE;
  e->provider = provider;
  e->name = name;
  e->argc = argc;
  __atomic_fetch_add(&expectations_, 1, __ATOMIC_SEQ_CST);
  /* Armed once every argument is recorded: here for no arguments, else by
   * the last oracle_expect_arg_. */
  if (argc == 0)
    __atomic_store_n(&e->state, EXPECT_ARMED, __ATOMIC_SEQ_CST);
}

ORACLE_EXTERN_C void oracle_expect_arg_(int index, oracle_value value) {
  struct expectation *e = &expect_;
  if (index >= 0 && index < ORACLE_MAX_ARGS)
    e->args[index] = value;
  if (index == e->argc - 1)
    __atomic_store_n(&e->state, EXPECT_ARMED, __ATOMIC_SEQ_CST);
}

/* ---- ORACLE_LOG: the truth for a tracer outside the process ---------------
 *
 * With ORACLE_LOG=FILE the oracle enables nothing: another tracer (gdb,
 * through conformance/consumers) stops at the probes instead, and FILE gets
 * one line per expectation, written when the probe's statement is done:
 *   expect PROVIDER NAME ARGC VALUE...
 * each VALUE the C value as KIND:SIZE:BITS, KIND i (integer or pointer; BITS
 * sign-extended to 64 when the type is signed) or f (BITS the IEEE bits of
 * the float or double), BITS in hex. The tracer's values are compared with
 * these, modulo 2^(8*SIZE). */
static int log_fd_ = -1;
static void runtime_failure_text(const char *what);

static void log_expectation(const struct expectation *e) {
  char line[64 + 2 * ORACLE_NAME_MAX + ORACLE_MAX_ARGS * 32];
  int n, i;
  n = snprintf(line, sizeof line, "expect %s %s %d", e->provider, e->name,
               e->argc);
  for (i = 0; i < e->argc && i < ORACLE_MAX_ARGS && n > 0 &&
              (size_t)n < sizeof line;
       i++) {
    const oracle_value *v = &e->args[i];
    int is_float = v->kind == ORACLE_KIND_FLOAT;
    uint64_t bits = !is_float     ? v->bits
                    : v->size == 4 ? float_bits((float)v->real)
                                   : double_bits(v->real);
    n += snprintf(line + n, sizeof line - (size_t)n, " %c:%d:%llx",
                  is_float ? 'f' : 'i', v->size, (unsigned long long)bits);
  }
  if (n > 0 && (size_t)n < sizeof line - 1) {
    line[n++] = '\n';
    /* One write per line, O_APPEND: threads do not interleave lines. */
    if (write(log_fd_, line, (size_t)n) != n)
      runtime_failure_text("ORACLE_LOG: short write");
  }
}

ORACLE_EXTERN_C void oracle_expect_end_(void) {
  struct expectation *e = &expect_;
  if (log_fd_ >= 0 && e->provider) {
    log_expectation(e);
  } else if (e->state == EXPECT_ARMED) {
    struct failure *f = new_failure(FAIL_NO_HIT, e->provider, e->name);
    if (f)
      str_copy(f->detail, sizeof f->detail,
               started_ ? (stopped_ ? "the oracle was stopped"
                                    : "the site did not trap")
                        : "oracle_start() was not called yet");
    publish(f);
  }
  e->state = EXPECT_IDLE;
  e->provider = NULL;
  e->name = NULL;
}

/* ---- Enabling ---------------------------------------------------------------- */

static void runtime_failure_text(const char *what) {
  struct failure *f = new_failure(FAIL_RUNTIME, "", "");
  if (f) {
    str_copy(f->detail, sizeof f->detail, what);
    publish(f);
  }
}

static void runtime_failure(const char *what, const xsdt_error *err) {
  struct failure *f = new_failure(FAIL_RUNTIME, "", "");
  if (f) {
    snprintf(f->detail, sizeof f->detail, "%.160s: %.40s: %.255s", what,
             xsdt_status_name(err->code), err->message);
  }
  publish(f);
}

/* Probes of the system libraries (glibc, libstdc++, ...) are not the
 * program's: they are sys/sdt.h sites the program does not check. */
static int system_provider(const char *provider) {
  static const char *const names[] = {"libc", "rtld", "libpthread", "libm",
                                      "libstdcxx", "libgcc", NULL};
  int i;
  for (i = 0; names[i]; i++)
    if (str_eq(provider, names[i]))
      return 1;
  return 0;
}

struct list_state {
  const char *pattern;
  char providers[ORACLE_MAX_PATTERNS][ORACLE_NAME_MAX];
  unsigned provider_count;
  unsigned matched;
};

static int pattern_matches(const char *pattern, const char *provider,
                           const char *name) {
  char prov_pat[ORACLE_NAME_MAX * 2], name_pat[ORACLE_NAME_MAX * 2];
  const char *colon = strchr(pattern, ':');
  if (!colon)
    return fnmatch(pattern, provider, 0) == 0;
  snprintf(prov_pat, sizeof prov_pat, "%.*s", (int)(colon - pattern), pattern);
  snprintf(name_pat, sizeof name_pat, "%s", colon + 1);
  return fnmatch(prov_pat, provider, 0) == 0 &&
         fnmatch(name_pat, name, 0) == 0;
}

static void collect_site(const xsdt_probe_info *probe, void *user) {
  struct list_state *st = (struct list_state *)user;
  unsigned i;
  if (st->pattern) {
    /* Record the sites an enable just patched. */
    if (!pattern_matches(st->pattern, probe->provider, probe->name))
      return;
    st->matched++;
    for (i = 0; i < site_count_; i++)
      if (sites_[i].pc == probe->pc)
        return;
    if (site_count_ < ORACLE_MAX_SITES) {
      sites_[site_count_].pc = probe->pc;
      str_copy(sites_[site_count_].provider, ORACLE_NAME_MAX, probe->provider);
      str_copy(sites_[site_count_].name, ORACLE_NAME_MAX, probe->name);
      site_count_++;
    }
    return;
  }
  /* Collect the program's providers. */
  if (system_provider(probe->provider))
    return;
  for (i = 0; i < st->provider_count; i++)
    if (str_eq(st->providers[i], probe->provider))
      return;
  if (st->provider_count < ORACLE_MAX_PATTERNS)
    str_copy(st->providers[st->provider_count++], ORACLE_NAME_MAX,
             probe->provider);
}

ORACLE_EXTERN_C int oracle_enable(const char *pattern) {
  xsdt_error err;
  struct list_state st;
  unsigned before = site_count_;
  int n;
  if (log_fd_ >= 0) {
    /* ORACLE_LOG: the tracer outside stops at what it reads; the result is
     * the count an enable would have patched. */
    memset(&err, 0, sizeof err);
    memset(&st, 0, sizeof st);
    st.pattern = pattern;
    if (xsdt_list(collect_site, &st, &err) < 0)
      runtime_failure("xsdt_list", &err);
    return (int)st.matched;
  }
  memset(&err, 0, sizeof err);
  n = xsdt_enable(pattern, handler, NULL, &err);
  if (n < 0) {
    char what[160];
    snprintf(what, sizeof what, "xsdt_enable(\"%.120s\")", pattern);
    runtime_failure(what, &err);
    return n;
  }
  enabled_total_ += n;
  if (pattern_count_ < ORACLE_MAX_PATTERNS)
    str_copy(patterns_[pattern_count_++], sizeof patterns_[0], pattern);
  memset(&st, 0, sizeof st);
  st.pattern = pattern;
  if (xsdt_list(collect_site, &st, &err) < 0)
    runtime_failure("xsdt_list", &err);
  if ((int)(site_count_ - before) != n) {
    struct failure *f = new_failure(FAIL_RUNTIME, "", "");
    if (f)
      snprintf(f->detail, sizeof f->detail,
               "xsdt_enable(\"%s\") returned %d but xsdt_list shows %u new "
               "matching sites",
               pattern, n, site_count_ - before);
    publish(f);
  }
  return n;
}

static void report(void);
static void check_started(void);

ORACLE_EXTERN_C void oracle_start(void) {
  xsdt_error err;
  struct list_state st;
  unsigned i;
  if (started_)
    return;
  started_ = 1;
  {
    const char *fault = getenv("ORACLE_FAULT");
    char prov[ORACLE_NAME_MAX], name[ORACLE_NAME_MAX];
    int arg;
    if (fault && sscanf(fault, "%63[^:]:%63[^:]:arg%d", prov, name, &arg) == 3) {
      str_copy(fault_provider_, sizeof fault_provider_, prov);
      str_copy(fault_name_, sizeof fault_name_, name);
      fault_arg_ = arg;
      printf("oracle: ORACLE_FAULT set: expecting a wrong value for %s:%s "
             "arg%d\n",
             prov, name, arg);
    }
  }
  {
    const char *log = getenv("ORACLE_LOG");
    if (log && *log) {
      log_fd_ = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (log_fd_ < 0) {
        printf("oracle: FAIL cannot open ORACLE_LOG %s\n", log);
        fflush(stdout);
        _exit(1);
      }
      /* The providers under test, as oracle_enable would pick them. */
      memset(&err, 0, sizeof err);
      memset(&st, 0, sizeof st);
      if (xsdt_list(collect_site, &st, &err) < 0)
        runtime_failure("xsdt_list", &err);
      for (i = 0; i < st.provider_count; i++) {
        char line[ORACLE_NAME_MAX + 16];
        int n = snprintf(line, sizeof line, "provider %s\n", st.providers[i]);
        if (n > 0 && write(log_fd_, line, (size_t)n) != n)
          runtime_failure_text("ORACLE_LOG: short write");
      }
      atexit(report);
      return;
    }
  }
  memset(&err, 0, sizeof err);
  memset(&st, 0, sizeof st);
  if (xsdt_list(collect_site, &st, &err) < 0)
    runtime_failure("xsdt_list", &err);
  for (i = 0; i < st.provider_count; i++) {
    char pattern[ORACLE_NAME_MAX + 3];
    snprintf(pattern, sizeof pattern, "%s:*", st.providers[i]);
    oracle_enable(pattern);
  }
  /* After the runtime's first calls, so that this runs before the
   * runtime's own static destructors. */
  atexit(report);
}

ORACLE_EXTERN_C void oracle_stop(void) {
  unsigned i;
  for (i = 0; i < pattern_count_; i++) {
    xsdt_error err;
    memset(&err, 0, sizeof err);
    if (xsdt_disable(patterns_[i], &err) < 0) {
      char what[160];
      snprintf(what, sizeof what, "xsdt_disable(\"%.120s\")", patterns_[i]);
      runtime_failure(what, &err);
    }
  }
  stopped_ = 1;
}

ORACLE_EXTERN_C void oracle_unreached(const char *provider, const char *name) {
  if (unreached_count_ < ORACLE_MAX_UNREACHED) {
    str_copy(unreached_[unreached_count_][0], ORACLE_NAME_MAX, provider);
    str_copy(unreached_[unreached_count_][1], ORACLE_NAME_MAX, name);
    unreached_count_++;
  }
}

static int is_unreached(const struct site *s) {
  unsigned i;
  for (i = 0; i < unreached_count_; i++)
    if (str_eq(unreached_[i][0], s->provider) &&
        str_eq(unreached_[i][1], s->name))
      return 1;
  return 0;
}

/* ---- Report ------------------------------------------------------------------ */

static const char *cell_(void) {
  const char *env = getenv("ORACLE_CELL");
  return env && *env ? env : ORACLE_CELL;
}

static void print_int(char *buf, size_t cap, uint64_t bits, int is_signed) {
  if (is_signed)
    snprintf(buf, cap, "%lld", (long long)(int64_t)bits);
  else
    snprintf(buf, cap, "%llu", (unsigned long long)bits);
}

static void print_failure(const struct failure *f, const char *cell) {
  char exp[96], got[96];
  const char *in = *cell ? " in " : "";
  switch (f->kind) {
  case FAIL_MISMATCH:
    if (f->what == 1) {
      snprintf(exp, sizeof exp, "type %s%d%s", f->exp_signed ? "-" : "",
               f->exp_size, f->exp_is_float ? "f" : "");
      snprintf(got, sizeof got, "%s%d%s", f->got_signed ? "-" : "",
               f->got_size, f->got_is_float ? "f" : "");
    } else if (f->what == 2) {
      snprintf(exp, sizeof exp, "bits 0x%llx", (unsigned long long)f->exp_bits);
      snprintf(got, sizeof got, "0x%llx", (unsigned long long)f->got_bits);
    } else if (f->what == 3) {
      snprintf(exp, sizeof exp, "a value");
      snprintf(got, sizeof got, "an unreadable operand");
    } else if (f->what == 4) {
      snprintf(exp, sizeof exp, "%.17g (bits 0x%llx)", f->exp_real,
               (unsigned long long)f->exp_bits);
      snprintf(got, sizeof got, "%.17g (bits 0x%llx)", f->got_real,
               (unsigned long long)f->got_bits);
    } else if (f->exp_is_float) {
      snprintf(exp, sizeof exp, "%.17g", f->exp_real);
      snprintf(got, sizeof got, "%.17g", f->got_real);
    } else {
      print_int(exp, sizeof exp, f->exp_bits, f->spec_signed);
      print_int(got, sizeof got, f->got_bits, f->spec_signed);
    }
    printf("oracle: MISMATCH %s:%s arg%d spec '%s': expected %s got %s%s%s\n",
           f->provider, f->name, f->arg, f->spec, exp, got, in, cell);
    break;
  case FAIL_WRONG_PROBE:
    printf("oracle: MISMATCH hit %s:%s (%d args) at 0x%llx while expecting "
           "%s args%s%s\n",
           f->provider, f->name, f->arg, (unsigned long long)f->pc, f->detail,
           in, cell);
    break;
  case FAIL_UNEXPECTED:
    printf("oracle: UNEXPECTED hit %s:%s at 0x%llx: %s%s%s\n", f->provider,
           f->name, (unsigned long long)f->pc, f->detail, in, cell);
    break;
  case FAIL_NO_HIT:
    printf("oracle: NO HIT %s:%s was expected but did not trap (%s)%s%s\n",
           f->provider, f->name, f->detail, in, cell);
    break;
  case FAIL_NEVER_HIT:
    printf("oracle: NEVER HIT enabled site %s:%s at 0x%llx was never hit with "
           "an expectation%s%s\n",
           f->provider, f->name, (unsigned long long)f->pc, in, cell);
    break;
  default:
    printf("oracle: RUNTIME %s%s%s\n", f->detail, in, cell);
    break;
  }
}

static void report(void) {
  const char *cell = cell_();
  unsigned i, stored, unreached = 0, never = 0;
  int failed;
  if (log_fd_ >= 0) {
    /* ORACLE_LOG: nothing was enabled here; the tracer outside compares. */
    printf("oracle: %lu expectations logged for a tracer outside the "
           "process%s%s\n",
           expectations_, *cell ? "; cell " : "", cell);
    for (i = 0; i < failure_count_ && i < ORACLE_MAX_FAILURES; i++)
      if (failures_[i].ready)
        print_failure(&failures_[i], cell);
    fflush(stdout);
    if (failure_count_ > 0 || expectations_ == 0)
      _exit(1);
    return;
  }
  for (i = 0; i < site_count_; i++) {
    if (was_hit(sites_[i].pc))
      continue;
    if (is_unreached(&sites_[i])) {
      unreached++;
      continue;
    }
    never++;
    {
      struct failure *f = new_failure(FAIL_NEVER_HIT, sites_[i].provider,
                                      sites_[i].name);
      if (f)
        f->pc = sites_[i].pc;
      publish(f);
    }
  }
  printf("oracle: %u sites, %lu args verified, %u mismatches\n", hit_sites_,
         args_verified_, mismatch_count_);
  printf("oracle: %ld sites enabled, %u hit, %u declared unreached; %lu hits"
         "%s%s\n",
         enabled_total_, hit_sites_, unreached, hits_, *cell ? "; cell " : "",
         cell);
  stored = failure_count_ < ORACLE_MAX_FAILURES ? failure_count_
                                                : ORACLE_MAX_FAILURES;
  for (i = 0; i < stored; i++)
    if (failures_[i].ready)
      print_failure(&failures_[i], cell);
  if (failure_count_ > stored)
    printf("oracle: ... and %u more failures\n", failure_count_ - stored);
  failed = failure_count_ > 0;
  if (args_verified_ == 0) {
    printf("oracle: FAIL no argument was verified%s%s\n", *cell ? " in " : "",
           cell);
    failed = 1;
  }
  if (enabled_total_ <= 0) {
    printf("oracle: FAIL no site was enabled%s%s\n", *cell ? " in " : "", cell);
    failed = 1;
  }
  (void)never;
  fflush(stdout);
  if (failed)
    _exit(1);
}

/* A program linked with the oracle that never starts it checks nothing. */
static void check_started(void) {
  if (!started_) {
    printf("oracle: FAIL oracle_start() was never called (%lu expectations)\n",
           expectations_);
    fflush(stdout);
    _exit(1);
  }
}

__attribute__((constructor)) static void oracle_init(void) {
  atexit(check_started);
}
