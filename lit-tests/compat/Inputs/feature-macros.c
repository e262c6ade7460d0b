/* The names of SystemTap's <sys/sdt.h> 4.8 that a program can use or test
 * (every #define of sys/sdt.h and sdt-config.h; <xsdt/sys-sdt.h>'s opening
 * comment says what it does with each), checked by the preprocessor and the
 * compiler: each check fails the build with the name it is about. Built
 * against <xsdt/sys-sdt.h>, and with -DUSE_SYSTEMTAP against sys/sdt.h
 * itself, the control: the checks say what sys/sdt.h says, except where
 * marked XSDT_ONLY (names xsdt deliberately leaves out, and
 * STAP_PROBE_ASM_OPERANDS in C++, which sys/sdt.h defines for C99 only).
 * No probe here: compat-probes.c uses them. */
#ifdef USE_SYSTEMTAP
#define SDT_USE_VARIADIC 1 /* its STAP_PROBEV and _SDT_PROBE_N need it */
#include <sys/sdt.h>
#else
#include <xsdt/sys-sdt.h>
#define XSDT_ONLY 1
#endif

/* ---- Values the preprocessor sees ---- */
#if !defined(_SYS_SDT_H) || _SYS_SDT_H != 1
#error "_SYS_SDT_H is not 1"
#endif
#if _SDT_NOTE_TYPE != 3
#error "_SDT_NOTE_TYPE is not 3"
#endif
#if _SDT_ASM_SECTION_AUTOGROUP_SUPPORT != 1
#error "_SDT_ASM_SECTION_AUTOGROUP_SUPPORT is not 1"
#endif
/* (_SDT_NARG(0) is 0 too, but -Wpedantic rejects the empty variadic part,
 * with either header.) */
#if _SDT_NARG(0, a) != 1 || _SDT_NARG(0, a, b, c) != 3 ||                     \
    _SDT_NARG(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) != 12
#error "_SDT_NARG does not count"
#endif
#if __SDT_NARG(0, 1, 2, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) != 2
#error "__SDT_NARG does not count"
#endif

/* ---- Defined ---- */
#ifndef STAP_PROBE
#error "STAP_PROBE is not defined"
#endif
#ifndef STAP_PROBE1
#error "STAP_PROBE1 is not defined"
#endif
#ifndef STAP_PROBE2
#error "STAP_PROBE2 is not defined"
#endif
#ifndef STAP_PROBE3
#error "STAP_PROBE3 is not defined"
#endif
#ifndef STAP_PROBE4
#error "STAP_PROBE4 is not defined"
#endif
#ifndef STAP_PROBE5
#error "STAP_PROBE5 is not defined"
#endif
#ifndef STAP_PROBE6
#error "STAP_PROBE6 is not defined"
#endif
#ifndef STAP_PROBE7
#error "STAP_PROBE7 is not defined"
#endif
#ifndef STAP_PROBE8
#error "STAP_PROBE8 is not defined"
#endif
#ifndef STAP_PROBE9
#error "STAP_PROBE9 is not defined"
#endif
#ifndef STAP_PROBE10
#error "STAP_PROBE10 is not defined"
#endif
#ifndef STAP_PROBE11
#error "STAP_PROBE11 is not defined"
#endif
#ifndef STAP_PROBE12
#error "STAP_PROBE12 is not defined"
#endif
#ifndef DTRACE_PROBE
#error "DTRACE_PROBE is not defined"
#endif
#ifndef DTRACE_PROBE1
#error "DTRACE_PROBE1 is not defined"
#endif
#ifndef DTRACE_PROBE2
#error "DTRACE_PROBE2 is not defined"
#endif
#ifndef DTRACE_PROBE3
#error "DTRACE_PROBE3 is not defined"
#endif
#ifndef DTRACE_PROBE4
#error "DTRACE_PROBE4 is not defined"
#endif
#ifndef DTRACE_PROBE5
#error "DTRACE_PROBE5 is not defined"
#endif
#ifndef DTRACE_PROBE6
#error "DTRACE_PROBE6 is not defined"
#endif
#ifndef DTRACE_PROBE7
#error "DTRACE_PROBE7 is not defined"
#endif
#ifndef DTRACE_PROBE8
#error "DTRACE_PROBE8 is not defined"
#endif
#ifndef DTRACE_PROBE9
#error "DTRACE_PROBE9 is not defined"
#endif
#ifndef DTRACE_PROBE10
#error "DTRACE_PROBE10 is not defined"
#endif
#ifndef DTRACE_PROBE11
#error "DTRACE_PROBE11 is not defined"
#endif
#ifndef DTRACE_PROBE12
#error "DTRACE_PROBE12 is not defined"
#endif
#ifndef STAP_PROBEV
#error "STAP_PROBEV is not defined"
#endif
#ifndef STAP_PROBE_ASM
#error "STAP_PROBE_ASM is not defined"
#endif
#ifndef STAP_PROBE_ASM_TEMPLATE
#error "STAP_PROBE_ASM_TEMPLATE is not defined"
#endif
#ifndef _SDT_NOTE_NAME
#error "_SDT_NOTE_NAME is not defined"
#endif
#ifndef _SDT_NOTE_TYPE
#error "_SDT_NOTE_TYPE is not defined"
#endif
#ifndef _SDT_ASM_ADDR
#error "_SDT_ASM_ADDR is not defined"
#endif
#ifndef _SDT_ASM_AUTOGROUP
#error "_SDT_ASM_AUTOGROUP is not defined"
#endif
#ifndef _SDT_ASM_SECTION_AUTOGROUP_SUPPORT
#error "_SDT_ASM_SECTION_AUTOGROUP_SUPPORT is not defined"
#endif
#ifndef STAP_SDT_ARG_CONSTRAINT
#error "STAP_SDT_ARG_CONSTRAINT is not defined"
#endif
#ifndef _SDT_STRINGIFY
#error "_SDT_STRINGIFY is not defined"
#endif
#ifndef _SDT_ARG_CONSTRAINT_STRING
#error "_SDT_ARG_CONSTRAINT_STRING is not defined"
#endif
#ifndef _SDT_S
#error "_SDT_S is not defined"
#endif
#ifndef _SDT_ASM_1
#error "_SDT_ASM_1 is not defined"
#endif
#ifndef _SDT_ASM_2
#error "_SDT_ASM_2 is not defined"
#endif
#ifndef _SDT_ASM_3
#error "_SDT_ASM_3 is not defined"
#endif
#ifndef _SDT_ASM_5
#error "_SDT_ASM_5 is not defined"
#endif
#ifndef _SDT_ASM_STRING
#error "_SDT_ASM_STRING is not defined"
#endif
#ifndef _SDT_ASM_STRING_1
#error "_SDT_ASM_STRING_1 is not defined"
#endif
#ifndef _SDT_ASM_SUBSTR
#error "_SDT_ASM_SUBSTR is not defined"
#endif
#ifndef _SDT_ASM_SUBSTR_1
#error "_SDT_ASM_SUBSTR_1 is not defined"
#endif
#ifndef _SDT_ASM_BLANK
#error "_SDT_ASM_BLANK is not defined"
#endif
#ifndef _SDT_NARG
#error "_SDT_NARG is not defined"
#endif
#ifndef __SDT_NARG
#error "__SDT_NARG is not defined"
#endif
#ifndef _SDT_ARGARRAY
#error "_SDT_ARGARRAY is not defined"
#endif
#ifndef _SDT_ARGSIZE
#error "_SDT_ARGSIZE is not defined"
#endif
#ifndef _SDT_ARGSIGNED
#error "_SDT_ARGSIGNED is not defined"
#endif
#ifndef _SDT_ARGVAL
#error "_SDT_ARGVAL is not defined"
#endif
#ifndef _SDT_NOTE_SEMAPHORE_USE
#error "_SDT_NOTE_SEMAPHORE_USE is not defined"
#endif
#ifndef _SDT_SEMAPHORE
#error "_SDT_SEMAPHORE is not defined"
#endif
#ifndef _SDT_PROBE
#error "_SDT_PROBE is not defined"
#endif
#ifndef _SDT_PROBE_N
#error "_SDT_PROBE_N is not defined"
#endif
#ifndef _SDT_ASM_BODY
#error "_SDT_ASM_BODY is not defined"
#endif
#ifndef _SDT_ASM_BODY_1
#error "_SDT_ASM_BODY_1 is not defined"
#endif
#ifndef _SDT_ASM_BODY_2
#error "_SDT_ASM_BODY_2 is not defined"
#endif
#ifndef _SDT_ASM_BODY_N
#error "_SDT_ASM_BODY_N is not defined"
#endif
#ifndef _SDT_ASM_BODY_N1
#error "_SDT_ASM_BODY_N1 is not defined"
#endif
#ifndef _SDT_ASM_BODY_N2
#error "_SDT_ASM_BODY_N2 is not defined"
#endif
#ifndef _SDT_ASM_BASE
#error "_SDT_ASM_BASE is not defined"
#endif
#ifndef _SDT_ASM_ARGS
#error "_SDT_ASM_ARGS is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_0
#error "_SDT_ASM_TEMPLATE_0 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_1
#error "_SDT_ASM_TEMPLATE_1 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_2
#error "_SDT_ASM_TEMPLATE_2 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_3
#error "_SDT_ASM_TEMPLATE_3 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_4
#error "_SDT_ASM_TEMPLATE_4 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_5
#error "_SDT_ASM_TEMPLATE_5 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_6
#error "_SDT_ASM_TEMPLATE_6 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_7
#error "_SDT_ASM_TEMPLATE_7 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_8
#error "_SDT_ASM_TEMPLATE_8 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_9
#error "_SDT_ASM_TEMPLATE_9 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_10
#error "_SDT_ASM_TEMPLATE_10 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_11
#error "_SDT_ASM_TEMPLATE_11 is not defined"
#endif
#ifndef _SDT_ASM_TEMPLATE_12
#error "_SDT_ASM_TEMPLATE_12 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_0
#error "_SDT_ASM_OPERANDS_0 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_1
#error "_SDT_ASM_OPERANDS_1 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_2
#error "_SDT_ASM_OPERANDS_2 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_3
#error "_SDT_ASM_OPERANDS_3 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_4
#error "_SDT_ASM_OPERANDS_4 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_5
#error "_SDT_ASM_OPERANDS_5 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_6
#error "_SDT_ASM_OPERANDS_6 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_7
#error "_SDT_ASM_OPERANDS_7 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_8
#error "_SDT_ASM_OPERANDS_8 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_9
#error "_SDT_ASM_OPERANDS_9 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_10
#error "_SDT_ASM_OPERANDS_10 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_11
#error "_SDT_ASM_OPERANDS_11 is not defined"
#endif
#ifndef _SDT_ASM_OPERANDS_12
#error "_SDT_ASM_OPERANDS_12 is not defined"
#endif
#ifndef _SDT_ARG
#error "_SDT_ARG is not defined"
#endif
#ifndef _SDT_ARGFMT
#error "_SDT_ARGFMT is not defined"
#endif
#if !defined(STAP_PROBE_ASM_OPERANDS) && (defined(XSDT_ONLY) || !defined(__cplusplus))
#error "STAP_PROBE_ASM_OPERANDS is not defined"
#endif

/* ---- Deliberately not defined by xsdt (sys/sdt.h-internal) ---- */
#ifdef XSDT_ONLY
#ifdef _SDT_NOP
#error "_SDT_NOP is defined: it is sys/sdt.h-internal"
#endif
#ifdef _SDT_ARGTMPL
#error "_SDT_ARGTMPL is defined: it is sys/sdt.h-internal"
#endif
#ifdef _SDT_DEF_MACROS
#error "_SDT_DEF_MACROS is defined: it is sys/sdt.h-internal"
#endif
#ifdef _SDT_UNDEF_MACROS
#error "_SDT_UNDEF_MACROS is defined: it is sys/sdt.h-internal"
#endif
#ifdef _SDT_ARGINTTYPE
#error "_SDT_ARGINTTYPE is defined: it is sys/sdt.h-internal"
#endif
#ifdef __SDT_ALWAYS_SIGNED
#error "__SDT_ALWAYS_SIGNED is defined: it is sys/sdt.h-internal"
#endif
#ifdef __SDT_COND_SIGNED
#error "__SDT_COND_SIGNED is defined: it is sys/sdt.h-internal"
#endif
#endif

/* ---- Defined by neither in C and C++ (the .S branch of sys/sdt.h, the note
 * versions of sys/sdt.h 1.x, and an input of the program) ---- */
#ifdef _SDT_DEPAREN_0
#error "_SDT_DEPAREN_0 is defined"
#endif
#ifdef _SDT_DEPAREN_1
#error "_SDT_DEPAREN_1 is defined"
#endif
#ifdef _SDT_DEPAREN_12
#error "_SDT_DEPAREN_12 is defined"
#endif
#ifdef STAP_SDT_V1
#error "STAP_SDT_V1 is defined"
#endif
#ifdef STAP_SDT_V2
#error "STAP_SDT_V2 is defined"
#endif
#ifdef _SDT_HAS_SEMAPHORES
#error "_SDT_HAS_SEMAPHORES is defined"
#endif

/* ---- Values the compiler sees ---- */
#ifdef __cplusplus
#define CHECK(name, cond) static_assert(cond, #name)
#else
#define CHECK(name, cond) enum { name = 1 / !!(cond) }
#endif

/* A hand-written stapsdt note from the asm helpers and the note constants:
 * pc 0, base 0, no semaphore, provider compat, name hand_made, no
 * arguments (the lit test reads it back with readelf). */
__asm__(_SDT_ASM_3(.pushsection .note.stapsdt, "", "note")
        _SDT_ASM_1(.balign 4)
        _SDT_ASM_3(.4byte 992f-991f, 994f-993f, _SDT_NOTE_TYPE)
        _SDT_ASM_1(991: .asciz _SDT_NOTE_NAME)
        _SDT_ASM_1(992: .balign 4)
        _SDT_ASM_1(993: _SDT_ASM_ADDR 0)
        _SDT_ASM_1(_SDT_ASM_ADDR 0)
        _SDT_ASM_1(_SDT_ASM_ADDR 0)
        _SDT_ASM_STRING(compat)
        _SDT_ASM_STRING(hand_made)
        _SDT_ASM_SUBSTR(\x00)
        _SDT_ASM_1(994: .balign 4)
        _SDT_ASM_1(.popsection));

static const char note_name[] = _SDT_NOTE_NAME;
static const char autogroup[] = _SDT_ASM_AUTOGROUP;
static const char constraint[] = _SDT_ARG_CONSTRAINT_STRING(STAP_SDT_ARG_CONSTRAINT);
static const char line[] = _SDT_ASM_2(a, b);
static const char blank[] = _SDT_ASM_BLANK;

int global_int;

void check_values(void);
void check_values(void) {
  int i = -1;
  unsigned char uc = 200;
  long long ll = -2;
  unsigned long long ull = 2;
  double d = 0.5;
  int arr[3] = {0, 1, 2};
  int *p = arr;
  CHECK(note_name_is_stapsdt, sizeof note_name == 8);
  CHECK(autogroup_is_question_mark, sizeof autogroup == 2);
  CHECK(constraint_is_a_string, sizeof constraint > 1);
  CHECK(asm_2_is_a_line, sizeof line == sizeof "a,b\n");
  CHECK(asm_blank_is_a_space, sizeof blank == sizeof ".ascii \"\\x20\"\n");
  /* In C++ sys/sdt.h's traits read __builtin_classify_type, which g++
   * does not take in a constant expression; xsdt's use the type alone
   * (but for _SDT_ARGARRAY, which is sys/sdt.h's own, C only). */
#if !defined(__cplusplus) || defined(XSDT_ONLY)
  CHECK(argsize_int, _SDT_ARGSIZE(i) == sizeof(int));
  CHECK(argsize_uchar, _SDT_ARGSIZE(uc) == 1);
  CHECK(argsize_ll, _SDT_ARGSIZE(ll) == 8);
  CHECK(argsize_double, _SDT_ARGSIZE(d) == 8);
  CHECK(argsize_array, _SDT_ARGSIZE(arr) == sizeof(void *));
  CHECK(argsize_pointer, _SDT_ARGSIZE(p) == sizeof(void *));
#endif
  /* sys/sdt.h's C _SDT_ARGSIGNED reads __builtin_constant_p, which gcc
   * does not fold at parse time from -O1 up: xsdt's only. */
#ifdef XSDT_ONLY
  CHECK(argsigned_int, _SDT_ARGSIGNED(i));
  CHECK(argsigned_ll, _SDT_ARGSIGNED(ll));
  CHECK(argsigned_uchar, !_SDT_ARGSIGNED(uc));
  CHECK(argsigned_ull, !_SDT_ARGSIGNED(ull));
  CHECK(argsigned_double, !_SDT_ARGSIGNED(d));
  CHECK(argsigned_pointer, !_SDT_ARGSIGNED(p));
#endif
#ifndef __cplusplus
  CHECK(argarray_array, _SDT_ARGARRAY(arr));
  CHECK(argarray_pointer, _SDT_ARGARRAY(p));
  CHECK(argarray_int, !_SDT_ARGARRAY(i));
#endif
  global_int = _SDT_ARGVAL(i) + note_name[0] + autogroup[0] + constraint[0] +
               line[0] + blank[0];
  (void)uc; (void)ll; (void)ull; (void)d; (void)p;
}
