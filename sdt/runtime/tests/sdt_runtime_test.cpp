// In progress (issue 4).
#include <gtest/gtest.h>
