/* A STAP_PROBE_ASM site in a function that --gc-sections removes, and one
 * in a function that stays: the dead site's note must go with its code. */
#include <xsdt/sys-sdt.h>

void dead_asm_function(void);
void dead_asm_function(void) {
  __asm__ __volatile__(STAP_PROBE_ASM(compat, asm_dead, STAP_PROBE_ASM_TEMPLATE(0)));
}

int main(void) {
  __asm__ __volatile__(STAP_PROBE_ASM(compat, asm_live, STAP_PROBE_ASM_TEMPLATE(0)));
  return 0;
}
