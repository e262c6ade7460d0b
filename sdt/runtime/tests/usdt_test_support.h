// What the USDT runtime tests share (runtime_test.cpp, usdt_jump_test.cpp):
// a handler that records a hit's decoded arguments, and a site's address
// and bytes.
#ifndef XSDT_RUNTIME_TESTS_USDT_TEST_SUPPORT_H
#define XSDT_RUNTIME_TESTS_USDT_TEST_SUPPORT_H

#include "xsdt/runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

namespace usdt_test {

struct Hits {
  std::atomic<int> count{0};
  std::uint64_t bits[XSDT_MAX_ARGS] = {};
  double dbl[XSDT_MAX_ARGS] = {};
  int argc = -1;
  int valid = 0;
};

inline void record(const xsdt_probe_info *, int argc, const xsdt_arg *args,
                   void *user) {
  auto *h = static_cast<Hits *>(user);
  h->argc = argc;
  h->valid = 1;
  for (int i = 0; i < argc; ++i) {
    h->bits[i] = args[i].bits;
    h->dbl[i] = args[i].as_double;
    h->valid &= args[i].valid;
  }
  h->count.fetch_add(1);
}

struct SiteFinder {
  std::string want;
  std::uintptr_t pc = 0;
  int argc = -1;
};

inline void find_site(const xsdt_probe_info *p, void *user) {
  auto *f = static_cast<SiteFinder *>(user);
  if (std::string(p->provider) + ":" + p->name == f->want) {
    f->pc = p->pc;
    f->argc = p->argc;
  }
}

inline std::uintptr_t site_of(const char *probe) {
  SiteFinder f{probe};
  xsdt_error err;
  EXPECT_GT(xsdt_list(find_site, &f, &err), 0) << err.message;
  return f.pc;
}

// The site's bytes as hex text ("0f 1f 44 00 00"), as the arch's
// arch.json "expect" writes them down (XSDT_TEST_SITE_NOP, _TRAP).
inline std::string site_text(const unsigned char *site) {
  std::string text;
  char byte[4];
  for (int i = 0; i < XSDT_TEST_SITE_SIZE; ++i) {
    std::snprintf(byte, sizeof byte, i ? " %02x" : "%02x", site[i]);
    text += byte;
  }
  return text;
}
inline std::string site_text(std::uintptr_t pc) {
  return site_text(reinterpret_cast<const unsigned char *>(pc));
}

} // namespace usdt_test

#endif // XSDT_RUNTIME_TESTS_USDT_TEST_SUPPORT_H
