/* xsdt_list reports this program's probes with their argument counts, in
 * the main program ("" object) and at distinct sites. */
#include "rt-test.h"

__attribute__((noinline)) void fire(int a, long b, const char *c) {
  XSDT_PROBE(lst, three, a, b, c);
  XSDT_PROBE(lst, none);
}

static void visit(const xsdt_probe_info *p, void *u) {
  (void)u;
  if (strcmp(p->provider, "lst") == 0)
    printf("probe %s:%s argc %d object '%s' args '%s'\n", p->provider, p->name,
           p->argc, p->object, p->args);
}

int main(void) {
  xsdt_error err;
  int n = xsdt_list(visit, NULL, &err);
  RT_CHECK(n >= 2);
  struct rt_find three = rt_find_probe("lst", "three");
  struct rt_find none = rt_find_probe("lst", "none");
  RT_CHECK(three.count == 1 && none.count == 1);
  RT_CHECK(three.argc == 3 && none.argc == 0);
  RT_CHECK(three.pc[0] != none.pc[0]);
  RT_CHECK(rt_bytes_are(three.pc[0], rt_nop) &&
           rt_bytes_are(none.pc[0], rt_nop));
  fire(1, 2, "x");
  return rt_finish();
}
