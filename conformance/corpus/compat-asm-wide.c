/* The <sys/sdt.h> drop-in's probes inside asm statements with 64-bit and floating-point arguments (STAP_PROBE_ASM_OPERANDS; not on the arches that put such values in stack slots), and a floating-point register variable, which is copied to a general register. */
#include <stdint.h>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"
#include "compat-registers.h"

volatile double src_double = -0.625;
volatile long long src_wide = -5000000000LL;

/* 3 probes: 4 + 1 + 12 = 17 arguments. */
__attribute__((noinline)) void probes(double d, long long w) {
  float f = (float)d;
  uint64_t u = (uint64_t)w * 3;
  ORACLE_GENERATED(
      __asm__ __volatile__(STAP_PROBE_ASM(compat_asm_wide, values,
                                          STAP_PROBE_ASM_TEMPLATE(4))
                           :
                           : STAP_PROBE_ASM_OPERANDS(4, d, f, w, u)),
      compat_asm_wide, values, d, f, w, u);
  ORACLE_GENERATED(
      do {
        COMPAT_DOUBLE(double, pinned) = d * 4;
        __asm__ __volatile__(STAP_PROBE_ASM(compat_asm_wide, pinned_double,
                                            STAP_PROBE_ASM_TEMPLATE(1))
                             :
                             : STAP_PROBE_ASM_OPERANDS(1, pinned));
      } while (0),
      compat_asm_wide, pinned_double, d * 4);
  /* Twelve arguments, 24 operands. */
  ORACLE_GENERATED(
      __asm__ __volatile__(
          STAP_PROBE_ASM(compat_asm_wide, twelve, STAP_PROBE_ASM_TEMPLATE(12))
          :
          : STAP_PROBE_ASM_OPERANDS(12, w, d, 1, 2, 3, 4, 5, 6, 7, 8, f, u)),
      compat_asm_wide, twelve, w, d, 1, 2, 3, 4, 5, 6, 7, 8, f, u);
}

int main(void) {
  oracle_start();
  probes(src_double, src_wide);
  return 0;
}
