/* Every probe form of the <sys/sdt.h> drop-in in one function, for the
 * language standards and -Wpedantic: STAP_PROBE..STAP_PROBE12,
 * DTRACE_PROBE..DTRACE_PROBE12, STAP_PROBEV with 0..12 arguments,
 * _SDT_PROBE and _SDT_PROBE_N, and STAP_PROBE_ASM with written argument
 * text, with STAP_PROBE_ASM_TEMPLATE(0) in a basic asm, and twice in one
 * asm: 45 probes of provider `forms`, and the written text, provider
 * `forms_text`, as it is (no spec of any arch). Valid C and C++. */
#include <xsdt/sys-sdt.h>

int sink;

void forms(int a, long b, unsigned char c, long long d, double f,
           const char *p);
void forms(int a, long b, unsigned char c, long long d, double f,
           const char *p) {
  STAP_PROBE(forms, stap0);
  STAP_PROBE1(forms, stap1, a);
  STAP_PROBE2(forms, stap2, a, b);
  STAP_PROBE3(forms, stap3, a, b, c);
  STAP_PROBE4(forms, stap4, a, b, c, d);
  STAP_PROBE5(forms, stap5, a, b, c, d, f);
  STAP_PROBE6(forms, stap6, a, b, c, d, f, p);
  STAP_PROBE7(forms, stap7, a, b, c, d, f, p, a);
  STAP_PROBE8(forms, stap8, a, b, c, d, f, p, a, b);
  STAP_PROBE9(forms, stap9, a, b, c, d, f, p, a, b, c);
  STAP_PROBE10(forms, stap10, a, b, c, d, f, p, a, b, c, d);
  STAP_PROBE11(forms, stap11, a, b, c, d, f, p, a, b, c, d, f);
  STAP_PROBE12(forms, stap12, a, b, c, d, f, p, a, b, c, d, f, p);
  DTRACE_PROBE(forms, dtrace0);
  DTRACE_PROBE1(forms, dtrace1, a);
  DTRACE_PROBE2(forms, dtrace2, a, b);
  DTRACE_PROBE3(forms, dtrace3, a, b, c);
  DTRACE_PROBE4(forms, dtrace4, a, b, c, d);
  DTRACE_PROBE5(forms, dtrace5, a, b, c, d, f);
  DTRACE_PROBE6(forms, dtrace6, a, b, c, d, f, p);
  DTRACE_PROBE7(forms, dtrace7, a, b, c, d, f, p, a);
  DTRACE_PROBE8(forms, dtrace8, a, b, c, d, f, p, a, b);
  DTRACE_PROBE9(forms, dtrace9, a, b, c, d, f, p, a, b, c);
  DTRACE_PROBE10(forms, dtrace10, a, b, c, d, f, p, a, b, c, d);
  DTRACE_PROBE11(forms, dtrace11, a, b, c, d, f, p, a, b, c, d, f);
  DTRACE_PROBE12(forms, dtrace12, a, b, c, d, f, p, a, b, c, d, f, p);
  STAP_PROBEV(forms, v0);
  STAP_PROBEV(forms, v1, a);
  STAP_PROBEV(forms, v2, a, b);
  STAP_PROBEV(forms, v3, a, b, c);
  STAP_PROBEV(forms, v4, a, b, c, d);
  STAP_PROBEV(forms, v5, a, b, c, d, f);
  STAP_PROBEV(forms, v6, a, b, c, d, f, p);
  STAP_PROBEV(forms, v7, a, b, c, d, f, p, a);
  STAP_PROBEV(forms, v8, a, b, c, d, f, p, a, b);
  STAP_PROBEV(forms, v9, a, b, c, d, f, p, a, b, c);
  STAP_PROBEV(forms, v10, a, b, c, d, f, p, a, b, c, d);
  STAP_PROBEV(forms, v11, a, b, c, d, f, p, a, b, c, d, f);
  STAP_PROBEV(forms, v12, a, b, c, d, f, p, a, b, c, d, f, p);
  _SDT_PROBE(forms, sdt_probe0, 0, ());
  _SDT_PROBE(forms, sdt_probe3, 3, (a, b, c));
  _SDT_PROBE_N(forms, sdt_probe_n2, 2, d, f);
  __asm__ __volatile__(STAP_PROBE_ASM(forms_text, asm_text, -4@LITERAL 8@TEXT));
  __asm__ __volatile__(STAP_PROBE_ASM(forms, asm_basic, STAP_PROBE_ASM_TEMPLATE(0)));
  __asm__ __volatile__("/* first */\n" STAP_PROBE_ASM(
      forms, asm_first, STAP_PROBE_ASM_TEMPLATE(0)) "/* second */\n"
      STAP_PROBE_ASM(forms, asm_second, STAP_PROBE_ASM_TEMPLATE(0)));
  sink = a + (int)b + c + (int)d + (int)f + p[0];
}

#ifdef WITH_MAIN
int main(void) {
  forms(1, 2, 3, 4, 5.0, "6");
  return 0;
}
#endif
