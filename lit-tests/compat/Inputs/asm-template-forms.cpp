/* asm-template-forms.c, compiled as C++. */
#include "asm-template-forms.c"
