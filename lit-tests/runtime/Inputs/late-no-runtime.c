/* A program and a library built with <xsdt/usdt.h> but without libxsdt:
 * their registration hooks find no libxsdt (weak, null) and do nothing;
 * the probes stay NOPs, the semaphore 0, and the program runs. */
#include <xsdt/usdt.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

XSDT_SEMAPHORE(nort, guarded);

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  XSDT_PROBE(nort, hit, argc);
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    printf("FAIL dlopen: %s\n", dlerror());
    return 1;
  }
  int (*fire)(int, long long) =
      (int (*)(int, long long))(uintptr_t)dlsym(lib, "late_fire");
  int r = fire(5, 6);
  dlclose(lib);
  printf("late_fire returned %d, semaphore %d\n", r,
         (int)XSDT_PROBE_ENABLED(nort, guarded));
  return 0;
}
