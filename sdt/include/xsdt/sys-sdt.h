/*
 * Drop-in replacement for SystemTap's <sys/sdt.h>: change
 *     #include <sys/sdt.h>   to   #include <xsdt/sys-sdt.h>
 * and keep STAP_PROBE, STAP_PROBE1..12, STAP_PROBEV and DTRACE_PROBE*.
 *
 * As with sys/sdt.h, defining _SDT_HAS_SEMAPHORES before the include makes
 * every probe's note name the semaphore <provider>_<name>_semaphore, which
 * the program defines (XSDT_SEMAPHORE does, or a `dtrace -h` header).
 */
#ifndef XSDT_SYS_SDT_H
#define XSDT_SYS_SDT_H

#include <xsdt/usdt.h>

#ifdef _SDT_HAS_SEMAPHORES
#define XSDT_COMPAT_PROBE_(...) XSDT_PROBE_SEMAPHORED_(__VA_ARGS__)
#else
#define XSDT_COMPAT_PROBE_(...) XSDT_PROBE(__VA_ARGS__)
#endif

#define STAP_PROBEV(...) XSDT_COMPAT_PROBE_(__VA_ARGS__)
#define STAP_PROBE(provider, name) XSDT_COMPAT_PROBE_(provider, name)
#define STAP_PROBE1(p, n, a1) XSDT_COMPAT_PROBE_(p, n, a1)
#define STAP_PROBE2(p, n, a1, a2) XSDT_COMPAT_PROBE_(p, n, a1, a2)
#define STAP_PROBE3(p, n, a1, a2, a3) XSDT_COMPAT_PROBE_(p, n, a1, a2, a3)
#define STAP_PROBE4(p, n, a1, a2, a3, a4) XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4)
#define STAP_PROBE5(p, n, a1, a2, a3, a4, a5)                                  \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5)
#define STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                              \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6)
#define STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                          \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7)
#define STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)                      \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7, a8)
#define STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)                  \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)            \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)       \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)  \
  XSDT_COMPAT_PROBE_(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#define DTRACE_PROBE(p, n) STAP_PROBE(p, n)
#define DTRACE_PROBE1(p, n, a1) STAP_PROBE1(p, n, a1)
#define DTRACE_PROBE2(p, n, a1, a2) STAP_PROBE2(p, n, a1, a2)
#define DTRACE_PROBE3(p, n, a1, a2, a3) STAP_PROBE3(p, n, a1, a2, a3)
#define DTRACE_PROBE4(p, n, a1, a2, a3, a4) STAP_PROBE4(p, n, a1, a2, a3, a4)
#define DTRACE_PROBE5(p, n, a1, a2, a3, a4, a5)                                \
  STAP_PROBE5(p, n, a1, a2, a3, a4, a5)
#define DTRACE_PROBE6(p, n, a1, a2, a3, a4, a5, a6)                            \
  STAP_PROBE6(p, n, a1, a2, a3, a4, a5, a6)
#define DTRACE_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)                        \
  STAP_PROBE7(p, n, a1, a2, a3, a4, a5, a6, a7)
#define DTRACE_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)                    \
  STAP_PROBE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8)
#define DTRACE_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)                \
  STAP_PROBE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define DTRACE_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)          \
  STAP_PROBE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define DTRACE_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)     \
  STAP_PROBE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define DTRACE_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  STAP_PROBE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)

#endif /* XSDT_SYS_SDT_H */
