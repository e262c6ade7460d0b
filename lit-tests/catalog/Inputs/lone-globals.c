/* Globals and a file static, each read only by the probe and alone in its
 * function: the shape where a "nor" operand becomes the variable's own
 * address expression, sym(%rip) on x86-64, sym@GOTOFF(%reg) on i386 PIE (a
 * bare sym without PIE), [x0, #:lo12:.LANCHOR0] on aarch64. bump() writes
 * each at run time, so none can be folded into a constant.
 * -DCATALOG_NO_64BIT leaves out the 64-bit global (on i386 it would raise
 * the register-pair bug as well, a separate entry). */
int global_int;
#ifndef CATALOG_NO_64BIT
long long global_llong = -7000000000LL;
#endif
static int static_int = 5;

__attribute__((noinline)) void probe_global_int(void) {
  IMPL_PROBE(catalog, global_int, global_int);
}

#ifndef CATALOG_NO_64BIT
__attribute__((noinline)) void probe_global_llong(void) {
  IMPL_PROBE(catalog, global_llong, global_llong);
}
#endif

__attribute__((noinline)) void probe_static_int(void) {
  IMPL_PROBE(catalog, static_int, static_int);
}

/* Two globals in one probe. */
__attribute__((noinline)) void probe_two_globals(void) {
  IMPL_PROBE(catalog, two_globals, global_int, static_int);
}

__attribute__((noinline)) void bump(int by) {
  global_int += by;
#ifndef CATALOG_NO_64BIT
  global_llong -= by;
#endif
  static_int += by;
}

int main(void) {
  bump(1);
  probe_global_int();
#ifndef CATALOG_NO_64BIT
  probe_global_llong();
#endif
  probe_static_int();
  probe_two_globals();
  return 0;
}
