/* What 32-bit ARM gives a probe: seven arguments, past the four argument
 * registers, of which some the compiler keeps in ip or lr (gcc prints their
 * aliases), a 64-bit parameter (a register pair), a 64-bit constant, and six
 * int parameters, two of them passed on the stack (in ARM state gcc loads
 * those into ip and lr). IMPL_PROBE is the implementation under test. */
long long wide_global = 0x123456789LL;
int table[10];
int counter;

__attribute__((noinline)) int seven(int i, long long ll, char c, short s,
                                    int *p, int idx) {
  IMPL_PROBE(catalog, seven, i, ll, c, s, p, counter, table[idx]);
  return i + 1;
}

__attribute__((noinline)) void wide_constant(void) {
  IMPL_PROBE(catalog, wide_constant, 5, 0x123456789LL);
}

__attribute__((noinline)) int six(int a, int b, int c, int d, int e, int f) {
  int r = a * b + c;
  IMPL_PROBE(catalog, six, a, b, c, d, e, f);
  return r ^ d ^ e ^ f;
}

int main(int argc, char **argv) {
  (void)argv;
  table[argc] = 7;
  counter = 42;
  wide_constant();
  six(argc, 2, 3, 4, 5, 6);
  return seven(argc, wide_global, 'x', -3, &counter, argc) == 0;
}
