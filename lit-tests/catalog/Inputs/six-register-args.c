/* The disabled cost of a probe site: six_register_args is built once
 * without the probe and once with it (-DWITH_PROBE); the difference of its
 * instruction count is what the site costs while nobody traces it. The six
 * arguments are the function's own parameters, in registers on every arch
 * but i386, so a site that names them in place costs only its NOP. */
__attribute__((noinline)) int six_register_args(int a, int b, int c, int d,
                                                int e, int f) {
  int r = a * b + c;
#ifdef WITH_PROBE
  IMPL_PROBE(catalog, six, a, b, c, d, e, f);
#endif
  return r ^ d ^ e ^ f;
}

int main(int argc, char **argv) {
  (void)argv;
  return six_register_args(argc, argc + 1, argc + 2, argc + 3, argc + 4,
                           argc + 5) == 0;
}
