/* errors.c, compiled as C++. */
#include "errors.c"
