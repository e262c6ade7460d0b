/* Fixture for xsdt-inspect's tests: probes through the project header
 * <xsdt/usdt.h>, built for every available target. Globals, constants,
 * floats, twelve arguments and a semaphore: the cases where sys/sdt.h emits
 * specs outside the portable subset. Five probes, 18 arguments. */
#include <xsdt/usdt.h>

int g = 5;
long long gl = 0x123456789LL;
double gd = 1.5;

XSDT_SEMAPHORE(demo, guarded);

__attribute__((noinline)) int f(int a, long b, short c, unsigned char d,
                                double e, float ff, int *p, int i) {
  XSDT_PROBE(demo, zero);
  XSDT_PROBE(demo, one, a);
  XSDT_PROBE(demo, many, a, b, c, d, e, ff, p, g, gl, -7, (short)-3, p[i]);
  XSDT_PROBE(demo, consts, 20015998343868LL, (char)-1, 42);
  XSDT_PROBE_GUARDED(demo, guarded, a, gd);
  return a + (int)b;
}

int main(int argc, char **argv) {
  int arr[4] = {1, 2, 3, 4};
  (void)argv;
  return f(argc, 2, 3, 4, 5.0, 6.0f, arr, argc & 3) & 0;
}
