/* Written argument text that no portable spec allows, in an asm probe
 * (as with sys/sdt.h, the program answers for the text): a register
 * without SIZE@ (the SDT v1 spelling) and a bare symbol. */
#include <xsdt/sys-sdt.h>

long counter = 7;

int main(void) {
  long value = counter;
  __asm__ __volatile__(STAP_PROBE_ASM(unportable, unsized, %0) : : "r"(value));
  __asm__ __volatile__(STAP_PROBE_ASM(unportable, symbol, 8@counter));
  return 0;
}
