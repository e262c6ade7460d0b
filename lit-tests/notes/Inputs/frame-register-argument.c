/* A probe argument in r11, which the compilers hand out in ARM state when
 * the frame pointer is omitted (-O2). A local register variable pins it
 * there; gcc keeps it there for the operand when a second pinned variable
 * is live (a lone one it copies first), clang copies it always. */
#include <xsdt/usdt.h>

int frame_register_argument(int x) {
  register int pinned __asm__("r11") = x * 3;
  register int other __asm__("r12") = x * 5;
  XSDT_PROBE(test, frame_register, pinned, other);
  return 0;
}
