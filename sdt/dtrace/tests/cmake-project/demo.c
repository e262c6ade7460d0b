/* Fires both probes of demo.d; prints whether a tracer holds the first. */
#include "demo.h"

#include <stdio.h>

int main(int argc, char **argv) {
  (void)argv;
  DEMO_REQUEST_START(argc, "/index.html");
  DEMO_IDLE();
  printf("request__start enabled=%d\n", DEMO_REQUEST_START_ENABLED() ? 1 : 0);
  return 0;
}
