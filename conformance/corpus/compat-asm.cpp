/* C++: the <sys/sdt.h> drop-in's probes inside asm statements: STAP_PROBE_ASM with STAP_PROBE_ASM_TEMPLATE(n) and STAP_PROBE_ASM_OPERANDS(n, ...) (integers and pointers of at most a word, constants, a register variable), in basic and extended asm, beside the program's own operands. */
/* The same program as the C one, compiled as C++. */
#include "compat-asm.c"
