/* The out-of-line paths' callees, libxsdt's in a real program; the
 * fixtures that are not linked with libxsdt define them here. The empty asm
 * keeps the compiler from proving a call useless and dropping the
 * out-of-line blocks the site records point at. */
#define XSDT_FIXTURE_FIRE_(suffix, ...)                                        \
  __attribute__((noinline)) void xsdt_sdt_fire##suffix(                        \
      struct xsdt_sdt_probe *probe, ##__VA_ARGS__) {                           \
    (void)probe;                                                               \
    __asm__ volatile("" ::: "memory");                                         \
  }
XSDT_FIXTURE_FIRE_(0)
XSDT_FIXTURE_FIRE_(1, uint64_t a0)
XSDT_FIXTURE_FIRE_(2, uint64_t a0, uint64_t a1)
XSDT_FIXTURE_FIRE_(3, uint64_t a0, uint64_t a1, uint64_t a2)
XSDT_FIXTURE_FIRE_(4, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
XSDT_FIXTURE_FIRE_(5, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4)
XSDT_FIXTURE_FIRE_(6, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4, uint64_t a5)
XSDT_FIXTURE_FIRE_(7, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4, uint64_t a5, uint64_t a6)
