#include "float-arg.c"
