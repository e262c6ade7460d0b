/* Adapter: SystemTap's <sys/sdt.h> (Debian systemtap-sdt-dev), through the
 * STAP_PROBEn names that xsdt provides too. The header is the host's: it is
 * arch-neutral, but Debian installs it under the host's multiarch directory,
 * so the suite links it into a directory of its own for cross builds.
 *
 * It has no jump sites, no SDT(9) API and no xsdt macros; its semaphores
 * need a hand-written <provider>_<name>_semaphore per probe, which the
 * corpus does not have, so the semaphore programs are not applicable.
 * Its `dtrace -h/-G` build step is SystemTap's dtrace script (same package),
 * which defines them: lit-tests/dtrace runs it beside xsdt-dtrace.
 *
 * xsdt-impl role: reference
 * xsdt-impl features: float-spec-suffix
 * xsdt-impl header: sys/sdt.h=/usr/include/[a-z0-9_]*-linux-gnu/sys/sdt.h
 * xsdt-impl header: sys/sdt-config.h=/usr/include/[a-z0-9_]*-linux-gnu/sys/sdt-config.h
 * xsdt-impl package: systemtap-sdt-dev
 * xsdt-impl generator: /usr/bin/dtrace
 *
 * Its known bugs on our arches (lit-tests/catalog; the armhf-* entries but
 * the Thumb one also hold on armel, the wide values on mipsel too), each
 * with the compilers
 * that must still hit it somewhere in a run (measured 2026-11 on Debian 12:
 * gcc-12 from -O1 up, except the i386 register pairs and the c.nop site,
 * which show at every level; clang 14-16 crash on riscv64, clang 19 does not):
 * xsdt-impl known-bug: catalog/aarch64-lo12.test gcc-*
 * xsdt-impl known-bug: catalog/i386-gotoff.test gcc-*
 * xsdt-impl known-bug: catalog/i386-register-pair.test gcc-*
 * xsdt-impl known-bug: catalog/x86_64-rip-relative.test gcc-*
 * xsdt-impl known-bug: catalog/x86_64-sib.test gcc-*
 * xsdt-impl known-bug: catalog/ppc64el-indexed.test gcc-*
 * xsdt-impl known-bug: catalog/s390x-index.test gcc-*
 * xsdt-impl known-bug: catalog/armhf-thumb-nop-site.test
 * xsdt-impl known-bug: catalog/armhf-index.test gcc-*
 * xsdt-impl known-bug: catalog/armhf-register-alias.test gcc-*
 * xsdt-impl known-bug: catalog/armhf-wide-values.test
 * xsdt-impl known-bug: catalog/arm-clang-address-symbol.test clang-*
 * xsdt-impl known-bug: catalog/mips-relocation-operands.test gcc-*
 * xsdt-impl known-bug: catalog/riscv-cnop-site.test
 * xsdt-impl known-bug: catalog/riscv-clang-crash.test clang-14 clang-15 clang-16
 * xsdt-impl known-bug: catalog/clang-spilled-args.test clang-*
 *
 * Its generator's (SystemTap's dtrace script's) known bugs, in every cell:
 * `probe p(void)` gets one parameter, a function-pointer parameter cuts the
 * list, -U and -xOPT are refused.
 * xsdt-impl known-bug: dtrace/void-parameters.test
 * xsdt-impl known-bug: dtrace/function-pointer-parameters.test
 * xsdt-impl known-bug: dtrace/preprocessor-undefine.test
 * xsdt-impl known-bug: dtrace/options-attached.test
 */
#include <sys/sdt.h>

/* STAP_PROBE for no argument, STAP_PROBE1..STAP_PROBE12 for 1..12: the
 * fixed-count names, which work in every C and C++ mode (STAP_PROBEV needs
 * an empty __VA_ARGS__, an error under -Wpedantic in C99). The trailing ~
 * keeps the counter's own "..." non-empty. */
#define IMPL_SYS_SDT_COUNT_(...)                                                \
  IMPL_SYS_SDT_PICK_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define IMPL_SYS_SDT_PICK_(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11,  \
                           a12, count, ...)                                     \
  count
#define IMPL_SYS_SDT_CAT_(a, b) IMPL_SYS_SDT_CAT2_(a, b)
#define IMPL_SYS_SDT_CAT2_(a, b) a##b
#define IMPL_SYS_SDT_0 STAP_PROBE
#define IMPL_SYS_SDT_1 STAP_PROBE1
#define IMPL_SYS_SDT_2 STAP_PROBE2
#define IMPL_SYS_SDT_3 STAP_PROBE3
#define IMPL_SYS_SDT_4 STAP_PROBE4
#define IMPL_SYS_SDT_5 STAP_PROBE5
#define IMPL_SYS_SDT_6 STAP_PROBE6
#define IMPL_SYS_SDT_7 STAP_PROBE7
#define IMPL_SYS_SDT_8 STAP_PROBE8
#define IMPL_SYS_SDT_9 STAP_PROBE9
#define IMPL_SYS_SDT_10 STAP_PROBE10
#define IMPL_SYS_SDT_11 STAP_PROBE11
#define IMPL_SYS_SDT_12 STAP_PROBE12

#define IMPL_PROBE(...)                                                        \
  IMPL_SYS_SDT_CAT_(IMPL_SYS_SDT_, IMPL_SYS_SDT_COUNT_(__VA_ARGS__))(__VA_ARGS__)
