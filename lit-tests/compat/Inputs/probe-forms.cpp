/* probe-forms.c, compiled as C++. */
#include "probe-forms.c"
