/* One probe in a function --gc-sections removes, one in a live function. */
#include <xsdt/sdt.h>

SDT_PROVIDER_DEFINE(gc);
SDT_PROBE_DEFINE1(gc, , , live, "int");
SDT_PROBE_DEFINE1(gc, , , dead, "int");

__attribute__((noinline)) int dead_function(int x) {
  SDT_PROBE1(gc, , , dead, x);
  return x + 1;
}

__attribute__((noinline)) int live_function(int x) {
  SDT_PROBE1(gc, , , live, x);
  return x + 2;
}

int main(int argc, char **argv) {
  (void)argv;
  return live_function(argc) == argc + 2 ? 0 : 1;
}
