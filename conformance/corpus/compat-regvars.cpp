/* C++: the <sys/sdt.h> drop-in with register variables as arguments: general registers (callee-saved, and one no portable spec names) and floating-point registers (double, float, an int in an SSE register), pinned with `register T v __asm__("reg")` (compat-registers.h). */
/* The same program as the C one, compiled as C++. */
#include "compat-regvars.c"
