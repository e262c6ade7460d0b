/* feature-macros.c, compiled as C++. */
#include "feature-macros.c"
