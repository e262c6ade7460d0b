/* A probe argument in r11, which the compilers hand out in ARM state when
 * the frame pointer is omitted (-O2): a local register variable pins it
 * there for clang. */
#include <xsdt/usdt.h>

int frame_register_argument(int x) {
  register int pinned __asm__("r11") = x * 3;
  XSDT_PROBE(test, frame_register, pinned);
  return 0;
}
