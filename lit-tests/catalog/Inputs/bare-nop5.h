/* A stand-in for an implementation with the x86-64 bug of
 * x86_64-red-zone-nop5.test: IMPL_PROBE (1..5 arguments) whose note points
 * at a bare 5-byte NOP, 0f 1f 44 00 00, as xsdt's site was before and as
 * libbpf/usdt's reverted `nop; nop5` offered a tracer one. Each argument
 * goes in a register as a signed 64-bit value (-8@%reg), which reads the
 * C value right modulo its size. Included after the cell's adapter. */
#undef IMPL_PROBE
#include <stdint.h>

#define BARE_ARG_(i) ".ascii \"-8@%q" #i "\"\n"
#define BARE_NEXT_(i) ".ascii \" -8@%q" #i "\"\n"
#define BARE_SITE_(provider, name, args, ...)                                  \
  __asm__ __volatile__(                                                        \
      "990: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"                              \
      ".pushsection .note.stapsdt,\"\",@note\n"                                \
      ".balign 4\n"                                                            \
      ".4byte 992f-991f, 994f-993f, 3\n"                                       \
      "991: .asciz \"stapsdt\"\n"                                              \
      "992: .balign 4\n"                                                       \
      "993: .8byte 990b, _.stapsdt.base, 0\n"                                  \
      ".asciz \"" #provider "\"\n"                                             \
      ".asciz \"" #name "\"\n" args ".byte 0\n"                                \
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
      : __VA_ARGS__)
#define BARE_IN_(x) "nr"((int64_t)(x))
#define BARE_PICK_(_1, _2, _3, _4, _5, n, ...) n
#define IMPL_PROBE(provider, name, ...)                                        \
  BARE_PICK_(__VA_ARGS__, BARE_5_, BARE_4_, BARE_3_, BARE_2_, BARE_1_)         \
  (provider, name, __VA_ARGS__)
#define BARE_1_(p, n, a)                                                       \
  BARE_SITE_(p, n, BARE_ARG_(0), BARE_IN_(a))
#define BARE_2_(p, n, a, b)                                                    \
  BARE_SITE_(p, n, BARE_ARG_(0) BARE_NEXT_(1), BARE_IN_(a), BARE_IN_(b))
#define BARE_3_(p, n, a, b, c)                                                 \
  BARE_SITE_(p, n, BARE_ARG_(0) BARE_NEXT_(1) BARE_NEXT_(2), BARE_IN_(a),        \
             BARE_IN_(b), BARE_IN_(c))
#define BARE_4_(p, n, a, b, c, d)                                              \
  BARE_SITE_(p, n, BARE_ARG_(0) BARE_NEXT_(1) BARE_NEXT_(2) BARE_NEXT_(3),        \
             BARE_IN_(a), BARE_IN_(b), BARE_IN_(c), BARE_IN_(d))
#define BARE_5_(p, n, a, b, c, d, e)                                           \
  BARE_SITE_(p, n,                                                             \
             BARE_ARG_(0) BARE_NEXT_(1) BARE_NEXT_(2) BARE_NEXT_(3) BARE_NEXT_(4), \
             BARE_IN_(a), BARE_IN_(b), BARE_IN_(c), BARE_IN_(d), BARE_IN_(e))
