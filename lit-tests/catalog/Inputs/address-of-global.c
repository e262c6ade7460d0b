/* A probe whose arguments are addresses of a global and of a file static,
 * constants the linker fixes: the shape where clang hands a "nor" operand
 * the bare symbol (4@global_int on 32-bit ARM). IMPL_PROBE is the
 * implementation under test. */
int global_int;
static int static_int = 5;

__attribute__((noinline)) void probe_addresses(void) {
  IMPL_PROBE(catalog, addresses, &global_int, &static_int);
}

int main(void) {
  global_int = 1;
  probe_addresses();
  return static_int != 5;
}
