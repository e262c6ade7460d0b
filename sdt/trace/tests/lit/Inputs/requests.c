/* 300 requests: request i passes (i, i * 10, the path of i % 3). */
#include <xsdt/usdt.h>
#include <stdio.h>

static const char *const paths[] = {"/a", "/bb", "/ccc"};

__attribute__((noinline)) static long serve(int i) {
  XSDT_PROBE(myapp, request, i, i * 10, paths[i % 3]);
  return i;
}

int main(void) {
  long total = 0;
  for (int i = 0; i < 300; ++i)
    total += serve(i);
  XSDT_PROBE(myapp, done, total);
  printf("total %ld\n", total);
  return 0;
}
