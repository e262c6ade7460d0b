/* A probe whose spec names the stack pointer (EXPECT_STACK_POINTER_SPEC:
 * arch.json's expect.stack_pointer, SIZE@NAME) reads the trapped thread's
 * stack pointer at the site: not 0, and within a page of a local variable
 * of the function that holds the site. The compilers pass arguments in
 * other registers, so only written text (STAP_PROBE_ASM) names it; a
 * sys/sdt.h probe of an -O0 build reads its arguments through it. */
#include "rt-test.h"

#include <xsdt/sys-sdt.h>

static volatile uintptr_t local_address;
static volatile uint64_t seen;
static volatile int hits, seen_valid;

static void on_hit(const xsdt_probe_info *p, int argc, const xsdt_arg *a,
                   void *u) {
  (void)p, (void)u;
  ++hits;
  seen_valid = argc == 1 && a[0].valid;
  seen = argc == 1 ? a[0].bits : 0;
}

__attribute__((noinline)) void touch(volatile char *c) { *c = 1; }

/* Not a leaf: its local lives in its frame, at or above the stack
 * pointer, wherever the ABI keeps the frame. */
__attribute__((noinline)) void site(void) {
  volatile char local;
  touch(&local);
  local_address = (uintptr_t)&local;
  __asm__ __volatile__(
      STAP_PROBE_ASM(stack, pointer, EXPECT_STACK_POINTER_SPEC));
}

int main(void) {
  xsdt_error err;
  RT_EXPECT_RESULT(xsdt_enable("stack:pointer", on_hit, NULL, &err), 1, &err);
  site();
  RT_CHECK(hits == 1);
  RT_CHECK(seen_valid);
  RT_CHECK(seen != 0);
  const uint64_t distance = seen > local_address ? seen - local_address
                                                 : local_address - seen;
  printf("stack pointer %s a page of the frame's local\n",
         distance < 4096 ? "within" : "not within");
  RT_CHECK(distance < 4096);
  RT_EXPECT_RESULT(xsdt_disable("stack:pointer", &err), 1, &err);
  return rt_finish();
}
