/* One probe site of the kind SITE_* names, hit CALLS times in a loop
 * (argv[1]); prints the nanoseconds per call, and the bytes at the probe's
 * address (argv[2]: its offset from hit()) as the process sees them then,
 * while a tracer may still hold it. kernel-hit-cost.py builds it
 * once per kind and runs it untraced and under bpftrace: the difference is
 * what a traced hit costs through the kernel.
 *
 *   SITE_XSDT       <xsdt/usdt.h>'s site (x86-64: `nop; nop10`, the note at
 *                   the nop)
 *   SITE_SYS_SDT    SystemTap's <sys/sdt.h> (a 1-byte nop)
 *   SITE_NOTE       a note by hand before the bytes SITE_BYTES, after
 *                   SITE_BEFORE and before SITE_AFTER: the other candidates
 *                   (a bare 5-byte NOP, libbpf/usdt's `nop; nop10`, a 5-byte
 *                   NOP between two moves of %rsp over the red zone)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(SITE_XSDT)
#include <xsdt/usdt.h>
#define PROBE(a, b) XSDT_PROBE(bench, hit, a, b)
#elif defined(SITE_SYS_SDT)
#include <sys/sdt.h>
#define PROBE(a, b) STAP_PROBE2(bench, hit, a, b)
#elif defined(SITE_NOTE)
#ifndef SITE_BEFORE
#define SITE_BEFORE ""
#endif
#ifndef SITE_AFTER
#define SITE_AFTER ""
#endif
#define PROBE(a, b)                                                            \
  __asm__ __volatile__(                                                        \
      SITE_BEFORE "\n990: .byte " SITE_BYTES "\n" SITE_AFTER "\n"              \
      ".pushsection .note.stapsdt,\"\",@note\n"                                \
      ".balign 4\n"                                                            \
      ".4byte 992f-991f, 994f-993f, 3\n"                                       \
      "991: .asciz \"stapsdt\"\n"                                              \
      "992: .balign 4\n"                                                       \
      "993: .8byte 990b, _.stapsdt.base, 0\n"                                  \
      ".asciz \"bench\"\n"                                                     \
      ".asciz \"hit\"\n"                                                       \
      ".asciz \"-8@%q0 -8@%q1\"\n"                                             \
      "994: .balign 4\n"                                                       \
      ".popsection\n"                                                          \
      ".ifndef _.stapsdt.base\n"                                               \
      ".pushsection .stapsdt.base,\"aG\",@progbits,.stapsdt.base,comdat\n"     \
      ".weak _.stapsdt.base\n"                                                 \
      ".hidden _.stapsdt.base\n"                                               \
      "_.stapsdt.base: .space 1\n"                                             \
      ".size _.stapsdt.base, 1\n"                                              \
      ".popsection\n"                                                          \
      ".endif\n"                                                               \
      :                                                                        \
      : "r"((int64_t)(a)), "r"((int64_t)(b)))
#else
#error "define SITE_XSDT, SITE_SYS_SDT or SITE_NOTE"
#endif

__attribute__((noinline)) long hit(long i, long acc) {
  PROBE(i, acc);
  return acc + (i ^ 3);
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 1000000, i, acc = 0;
  long offset = argc > 2 ? strtol(argv[2], NULL, 0) : 0;
  const unsigned char *site = (const unsigned char *)(uintptr_t)&hit + offset;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (i = 0; i < calls; i++)
    acc = hit(i, acc);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.1f ns/call (acc %ld) site", 
         ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
             (double)calls,
         acc);
  for (i = 0; i < 5; i++)
    printf(" %02x", site[i]);
  printf("\n");
  return 0;
}
