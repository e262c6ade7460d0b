#include "api.c"
