/* The <sys/sdt.h> drop-in's probes inside asm statements: STAP_PROBE_ASM with STAP_PROBE_ASM_TEMPLATE(n) and STAP_PROBE_ASM_OPERANDS(n, ...) (integers and pointers of at most a word, constants, a register variable), in basic and extended asm, beside the program's own operands. */
#include <stdint.h>
#include <xsdt/sys-sdt.h>

#include "../oracle/oracle.h"
#include "compat-registers.h"

volatile int src_int = -42;
volatile long src_long = 123456;
volatile struct memory_values {
  int8_t m8;
  uint16_t m16;
  int32_t m32;
  uint64_t m64;
} memory_values = {-0x5b, 0x1234, -0x12345678, 0x0123456789abcdefULL};

/* 7 probes: 0 + 4 + 3 + 2 + 1 + 4 + 0 = 14 arguments. */
__attribute__((noinline)) long probes(int i, long l, const char *p) {
  signed char c = (signed char)(i * 3);
  unsigned short us = (unsigned short)(i + 70000);
  long out;
  /* A basic asm: no operands, the template of 0 arguments. */
  ORACLE_GENERATED(
      __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, basic, STAP_PROBE_ASM_TEMPLATE(0))),
      compat_asm, basic);
  ORACLE_GENERATED(
      __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, values,
                                          STAP_PROBE_ASM_TEMPLATE(4))
                           :
                           : STAP_PROBE_ASM_OPERANDS(4, i, c, us, p)),
      compat_asm, values, i, c, us, p);
  ORACLE_GENERATED(
      __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, constants,
                                          STAP_PROBE_ASM_TEMPLATE(3))
                           :
                           : STAP_PROBE_ASM_OPERANDS(3, 42, -1,
                                                     (unsigned char)200)),
      compat_asm, constants, 42, -1, (unsigned char)200);
  /* Between the program's own text and operands: an output tied to an
   * input, a named operand, then the probe's operands. */
  ORACLE_GENERATED(
      __asm__ __volatile__("/* before */\n" STAP_PROBE_ASM(
                               compat_asm, among, STAP_PROBE_ASM_TEMPLATE(2))
                           "/* after %[named] */\n"
                           : "=r"(out)
                           : "0"(l), [named] "n"(7),
                             STAP_PROBE_ASM_OPERANDS(2, l, i)),
      compat_asm, among, l, i);
  /* A register variable keeps its register (a callee-saved one). */
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(long, pinned) = l * 2;
        __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, pinned,
                                            STAP_PROBE_ASM_TEMPLATE(1))
                             :
                             : STAP_PROBE_ASM_OPERANDS(1, pinned));
      } while (0),
      compat_asm, pinned, l * 2);
  /* Written argument text with memory operands ("m": the compiler prints
   * each object's address in the arch's own syntax). STAP_PROBE_ASM_OPERANDS
   * takes registers, and some arches' compilers never pick memory for a
   * probe argument at -O2, so this is
   * where every cell reads 1, 2, 4 and 8 bytes of memory in its own byte
   * order. Each value's bytes all differ: a read in the wrong order or
   * width gives another value. The objects are reached through a pointer
   * in a callee-saved register that every spec grammar names (left to
   * itself, a compiler may address stack objects from a frame register
   * that no portable spec names). */
  ORACLE_GENERATED(
      do {
        COMPAT_GP1(volatile struct memory_values *, base) = &memory_values;
        /* Hidden from the optimizer: it would address the global itself
         * (memory_values(%rip), @GOTOFF), which is no portable spec. */
        __asm__ __volatile__("" : "+r"(base));
        __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, memory,
                                            -1@%0 2@%1 -4@%2 8@%3)
                             :
                             : "m"(base->m8), "m"(base->m16), "m"(base->m32),
                               "m"(base->m64));
      } while (0),
      compat_asm, memory, memory_values.m8, memory_values.m16,
      memory_values.m32, memory_values.m64);
  ORACLE_GENERATED(
      __asm__ __volatile__(STAP_PROBE_ASM(compat_asm, no_operands,
                                          STAP_PROBE_ASM_TEMPLATE(0))
                           :
                           : STAP_PROBE_ASM_OPERANDS(0)),
      compat_asm, no_operands);
  return out;
}

int main(void) {
  oracle_start();
  return probes(src_int, src_long, "text") == src_long ? 0 : 1;
}
