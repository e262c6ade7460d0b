/* Probes of the common kinds: locals in registers, a global, a constant and
 * none. clang's riscv backend before LLVM 17 aborts on the "nor" operands
 * of sys/sdt.h ("Could not match memory address. Inline asm failure!",
 * llvm/llvm-project#58477) as soon as an argument is not a constant. */
int global_int = 3;

__attribute__((noinline)) long locals(int a, long b) {
  IMPL_PROBE(catalog, locals, a, b);
  return a + b;
}

__attribute__((noinline)) void global(void) {
  IMPL_PROBE(catalog, global, global_int);
}

__attribute__((noinline)) void constant(void) {
  IMPL_PROBE(catalog, constant, 42);
}

__attribute__((noinline)) void no_args(void) { IMPL_PROBE(catalog, no_args); }

int main(int argc, char **argv) {
  (void)argv;
  global_int += argc;
  no_args();
  constant();
  global();
  return locals(argc, 2) == 0;
}
