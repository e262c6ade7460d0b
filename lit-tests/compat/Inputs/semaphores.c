/* _SDT_HAS_SEMAPHORES with the sys/sdt.h names only: the semaphore defined
 * by hand as a `dtrace -h` header does, one STAP_PROBE1 and one
 * STAP_PROBE_ASM site of the same probe; with -DUNDECLARED a probe whose
 * semaphore is not declared, a compile error as with sys/sdt.h. */
#define _SDT_HAS_SEMAPHORES 1
#include <xsdt/sys-sdt.h>

__extension__ unsigned short compat_gated_semaphore
    __attribute__((unused, section(".probes"))) = 0;

int sink;

void probe(int x);
void probe(int x) {
  if (compat_gated_semaphore)
    STAP_PROBE1(compat, gated, x);
  __asm__ __volatile__(STAP_PROBE_ASM(compat, gated, STAP_PROBE_ASM_TEMPLATE(0)));
#ifdef UNDECLARED
  STAP_PROBE(compat, undeclared);
#endif
  sink = x;
}

int main(void) {
  probe(1);
  return 0;
}
