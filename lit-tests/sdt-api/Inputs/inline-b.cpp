#include "inline.h"
int call_b(int x) { return shared_inline(x) + 2; }
int call_a(int x);
int main(int argc, char **) { return call_a(argc) + call_b(argc) == 4 * argc + 3 ? 0 : 1; }
