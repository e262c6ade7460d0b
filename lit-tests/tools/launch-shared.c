/* Runs a test program that was linked as a shared library (link mode
 * "shared"): dlopens it and calls its main with the remaining arguments.
 * The probes then live in a DSO with its own load bias, which is what a
 * tracer meets in every library it attaches to. Exit status 127 and a
 * message on stderr if the program cannot be loaded. */
#include <dlfcn.h>
#include <stdio.h>

extern char **environ;

typedef int program_main(int argc, char **argv, char **envp);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROGRAM.so [ARGS...]\n", argv[0]);
    return 127;
  }
  void *program = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!program) {
    fprintf(stderr, "%s: %s\n", argv[0], dlerror());
    return 127;
  }
  /* ISO C forbids converting an object pointer to a function pointer; POSIX
   * dlsym needs it. Copy the bits instead of casting. */
  void *symbol = dlsym(program, "main");
  if (!symbol) {
    fprintf(stderr, "%s: %s has no main\n", argv[0], argv[1]);
    return 127;
  }
  program_main *entry;
  *(void **)&entry = symbol;
  return entry(argc - 1, argv + 1, environ);
}
