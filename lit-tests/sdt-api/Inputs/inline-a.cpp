#include "inline.h"
SDT_PROVIDER_DEFINE(comdat);
SDT_PROBE_DEFINE1(comdat, , , shared, "int");
int call_a(int x) { return shared_inline(x) + 1; }
