/* A shared library loaded with dlopen after the program started (dlopen-lib.c): once it is loaded, enabling its provider must find the new object's probes and semaphore. */
#include <dlfcn.h>
#include <stdio.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

volatile int src_value = 13;

__attribute__((noinline)) void before(int v) {
  ORACLE_PROBE(corpus, before_dlopen, v);
}

__attribute__((noinline)) void after(int v, long long result) {
  ORACLE_PROBE(corpus, after_dlopen, v, result);
}

int main(void) {
  int v = src_value, r;
  void *lib;
  int (*entry)(int, const char *, double);
  int (*enabled)(void);
  int *evaluations;
  oracle_start(); /* the program's own probes */
  before(v);
  /* Found through the run path $ORIGIN, beside the program. */
  lib = dlopen("libxsdt-dlopen.so", RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  *(void **)&entry = dlsym(lib, "dl_entry");
  *(void **)&enabled = dlsym(lib, "dl_enabled");
  evaluations = (int *)dlsym(lib, "dl_evaluations");
  if (!entry || !enabled || !evaluations)
    return 2;
  if (enabled())
    return 3;
  /* The library's two sites, found after the load. */
  if (oracle_enable("corpus_dl:*") != 2)
    return 4;
  if (!enabled())
    return 5;
  r = entry(v, "dlopen", v * 0.125);
  r += entry(-v, "again", -1.5);
  after(v, r);
  return *evaluations == 2 * ORACLE_EVALUATIONS ? 0 : 6;
}
