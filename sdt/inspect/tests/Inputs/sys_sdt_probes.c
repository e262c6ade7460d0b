/* Fixture for xsdt-inspect's tests: the same kind of probes through the
 * reference sys/sdt.h, whose sites and specs are not all portable: a 1-byte
 * nop on x86, a 2-byte c.nop on riscv64, `g(%rip)`, `g@GOTOFF(%reg)` and
 * `[xN, #:lo12:sym]` for a global argument at -O2. */
#include <sys/sdt.h>

int g = 5;
int arr[16];

__attribute__((noinline)) int f(int a, long b, int i) {
  STAP_PROBE2(demo, locals, a, b);
  STAP_PROBE1(demo, global, g);
  STAP_PROBE1(demo, indexed, arr[i]);
  return a;
}

int main(int argc, char **argv) {
  (void)argv;
  return f(argc, 2, argc & 15) & 0;
}
