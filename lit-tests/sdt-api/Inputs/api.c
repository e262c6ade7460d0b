/* Every SDT(9) macro of <xsdt/sdt.h>, as FreeBSD code spells them. Compiled
 * as C and as C++ (api.cpp includes this file). */
#include <xsdt/sdt.h>

#include <stddef.h>
#include <stdint.h>

SDT_PROVIDER_DEFINE(api);

SDT_PROBE_DEFINE(api, , , untyped);
SDT_PROBE_DEFINE0(api, , , zero);
SDT_PROBE_DEFINE1(api, , , receive__unreachable, "struct icmp *");
SDT_PROBE_DEFINE2(api, mod, , two, "int", "long");
SDT_PROBE_DEFINE3(api, , fn, three, "char", "short", "int");
SDT_PROBE_DEFINE4(api, , , four, "int", "int", "int", "int");
SDT_PROBE_DEFINE5(api, , , five, "int", "int", "int", "int", "int");
SDT_PROBE_DEFINE6(api, , , six, "int", "int", "int", "int", "int", "int");
SDT_PROBE_DEFINE7(api, , , seven, "int8_t", "uint8_t", "int16_t",
                  "uint16_t", "int32_t", "uint32_t", "int64_t");
SDT_PROBE_DEFINE0_XLATE(api, , , xzero);
SDT_PROBE_DEFINE1_XLATE(api, , , xone, "struct icmp *", "struct icmp_hdr_dt *");
SDT_PROBE_DEFINE2_XLATE(api, , , xtwo, "int", "int64_t", "char *", "string");
SDT_PROBE_DEFINE3_XLATE(api, , , xthree, "a", "b", "c", "d", "e", "f");
SDT_PROBE_DEFINE4_XLATE(api, , , xfour, "a", "b", "c", "d", "e", "f", "g",
                        "h");
SDT_PROBE_DEFINE5_XLATE(api, , , xfive, "a", "b", "c", "d", "e", "f", "g",
                        "h", "i", "j");
SDT_PROBE_DEFINE6_XLATE(api, , , xsix, "a", "b", "c", "d", "e", "f", "g", "h",
                        "i", "j", "k", "l");
SDT_PROBE_DEFINE7_XLATE(api, , , xseven, "a", "b", "c", "d", "e", "f", "g",
                        "h", "i", "j", "k", "l", "m", "n");

/* A probe declared before use, as in a file that only fires it. */
SDT_PROBE_DECLARE(api, , , four);

enum color { RED, GREEN };
static int global_counter = 3;

int fire_all(int a, long b, const char *s) {
  struct local {
    int x;
  } l = {a};
  int arr[2] = {a, a + 1};
  SDT_PROBE0(api, , , untyped);
  SDT_PROBE0(api, , , zero);
  SDT_PROBE1(api, , , receive__unreachable, s);
  SDT_PROBE2(api, mod, , two, a, b);
  SDT_PROBE3(api, , fn, three, (char)a, (short)b, l.x);
  SDT_PROBE4(api, , , four, GREEN, global_counter, arr[1], NULL);
  SDT_PROBE5(api, , , five, 1, 2, 3, 4, 5);
  SDT_PROBE6(api, , , six, a, a, a, a, a, (enum color)RED);
  SDT_PROBE7(api, , , seven, (int8_t)-1, (uint8_t)200, (int16_t)-2,
             (uint16_t)60000, (int32_t)-3, (uint32_t)4000000000u,
             (int64_t)-5);
  SDT_PROBE0(api, , , xzero);
  SDT_PROBE1(api, , , xone, arr);
  SDT_PROBE2(api, , , xtwo, a, s);
  SDT_PROBE3(api, , , xthree, 1, 2, 3);
  SDT_PROBE4(api, , , xfour, 1, 2, 3, 4);
  SDT_PROBE5(api, , , xfive, 1, 2, 3, 4, 5);
  SDT_PROBE6(api, , , xsix, 1, 2, 3, 4, 5, 6);
  SDT_PROBE7(api, , , xseven, 1, 2, 3, 4, 5, 6, 7);
  /* A second site of one probe in the same function. */
  SDT_PROBE2(api, mod, , two, b, a);
  return l.x;
}
