// XSDT_FUZZ_REQUIRE, on its own for the harnesses that do not link the
// inspector (fuzz_support.h includes it for the others).
#ifndef XSDT_FUZZ_REQUIRE_H
#define XSDT_FUZZ_REQUIRE_H

#include <cstdio>
#include <cstdlib>

// A property the code under test promises was broken. abort() rather than
// an exception, so libFuzzer reports it as a crash and keeps the input.
#define XSDT_FUZZ_REQUIRE(cond)                                                \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                     \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

#endif // XSDT_FUZZ_REQUIRE_H
