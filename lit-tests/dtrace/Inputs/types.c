/* Fires each probe of types.d with values of its declared types, through
 * the generated macros, with the oracle checking them. */
#include "types.h"
#include <stddef.h>
#include <stdint.h>

struct shelf {
  int rows;
};

int main(void) {
  char c = 'q';
  signed char sc = -100;
  unsigned char uc = 250;
  short s = -30000;
  unsigned short us = 60000;
  int i = -2000000000;
  unsigned u = 4000000000u;
  long l = -7L;
  unsigned long ul = 7UL;
  long long ll = -9000000000000000000LL;
  unsigned long long ull = 18000000000000000000ULL;
  static char buffer[16] = "shelf";
  static struct shelf shelf = {4};
  static int row[2];
  static int *grid[2] = {row, row};
  const char *name = "typeshop";
  uintptr_t handle = (uintptr_t)&shelf;
  intptr_t offset = -64;
  size_t size = sizeof shelf;
  uint8_t b = 255;
  int16_t h = -32768;
  uint32_t w = 0xdeadbeefu;
  int64_t q = INT64_MIN;
  const volatile unsigned int flags = 0x80000001u;
  const unsigned char tag = 0x7f;

  oracle_start();
  ORACLE_GENERATED(TYPESHOP_INTS(c, sc, uc, s, us, i, u, l, ul, ll, ull),
                   typeshop, ints, c, sc, uc, s, us, i, u, l, ul, ll, ull);
  ORACLE_GENERATED(TYPESHOP_POINTERS(name, buffer, &shelf, name, &shelf, grid),
                   typeshop, pointers, name, buffer, &shelf, name, &shelf, grid);
  ORACLE_GENERATED(TYPESHOP_HANDLES(handle, offset, size, b, h, w, q), typeshop,
                   handles, handle, offset, size, b, h, w, q);
  ORACLE_GENERATED(TYPESHOP_QUALIFIED(flags, tag), typeshop, qualified, flags,
                   tag);
  oracle_stop();
  return 0;
}
