/* SystemTap's own header (systemtap-sdt-dev): step i passes (i, i * 3). */
#include <stdio.h>
#include <sys/sdt.h>

int main(void) {
  long total = 0;
  for (int i = 0; i < 10; ++i) {
    DTRACE_PROBE2(legacy, step, i, i * 3);
    total += i;
  }
  printf("%ld\n", total);
  return 0;
}
