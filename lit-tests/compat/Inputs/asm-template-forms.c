/* STAP_PROBE_ASM's template form for the language standards and
 * -Wpedantic (its text must stay under the 4095 characters clang's
 * -Woverlength-strings allows a literal): twelve arguments, and an entry
 * and an exit probe sharing one asm's operands, as zlib's DFLTCC probes do.
 * Provider `template_forms`, 3 probes. Valid C and C++. */
#include <xsdt/sys-sdt.h>

int sink;

void template_forms(int a, long b, const char *p);
void template_forms(int a, long b, const char *p) {
  __asm__ __volatile__(
      STAP_PROBE_ASM(template_forms, twelve, STAP_PROBE_ASM_TEMPLATE(12))
      :
      : STAP_PROBE_ASM_OPERANDS(12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  __asm__ __volatile__(
      STAP_PROBE_ASM(template_forms, entry, STAP_PROBE_ASM_TEMPLATE(3))
      "/* the work */\n"
      STAP_PROBE_ASM(template_forms, exit, STAP_PROBE_ASM_TEMPLATE(3))
      :
      : STAP_PROBE_ASM_OPERANDS(3, a, b, p));
  sink = a + (int)b + p[0];
}

#ifdef WITH_MAIN
int main(void) {
  template_forms(1, 2, "3");
  return 0;
}
#endif
