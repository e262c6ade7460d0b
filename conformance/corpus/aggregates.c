/* Aggregate parts as arguments: nested struct fields, array elements with variable indices, linked nodes, escaping and volatile locals. */
#include <stdint.h>
#include <xsdt/usdt.h>

#include "../oracle/oracle.h"

/* In C a bit-field member cannot be a probe argument: the header applies
 * sizeof and __typeof__ to the argument, which C forbids for bit-fields
 * (gcc and clang both reject it), so the bit-fields are probed through an
 * explicit conversion. (C++ accepts them: cxx-features.cpp.) */
struct inner {
  short x;
  uint8_t tag;
  double weight;
};

struct outer {
  int id;
  struct inner in;
  struct inner arr[4];
  unsigned flags : 5;
  int level : 7;
  long long total;
};

struct node {
  int16_t v;
  struct node *next;
};

volatile int src_index = 2;
volatile int src_seed = 9;

/* Keeps the address of a local alive past the probe. */
__attribute__((noinline)) void escape(int *p) { *p += 1; }

__attribute__((noinline)) void fields(const struct outer *o, struct outer s) {
  ORACLE_PROBE(corpus, field_ptr, o->id, o->in.x, o->in.tag, o->in.weight,
               o->total);
  ORACLE_PROBE(corpus, field_value, s.id, s.in.x, s.in.tag, s.in.weight,
               s.total);
  ORACLE_PROBE(corpus, bitfields, (unsigned)o->flags, (int)o->level);
}

__attribute__((noinline)) void elements(const struct outer *o,
                                        const uint32_t *arr, int i) {
  uint64_t wide[5] = {1, 2, 3, 4, 5};
  wide[i] += arr[i];
  ORACLE_PROBE(corpus, array_index, arr[i], arr[i + 1], wide[i]);
  ORACLE_PROBE(corpus, nested_index, o->arr[i].x, o->arr[i].tag,
               o->arr[i].weight);
}

__attribute__((noinline)) void chain(const struct node *p) {
  ORACLE_PROBE(corpus, node_chain, p->v, p->next->v, p->next->next->v);
}

__attribute__((noinline)) void locals(int seed) {
  int escaped = seed * 3;
  volatile long long vol = seed - 100000000000LL;
  volatile unsigned char vol_byte = (unsigned char)(seed + 1);
  escape(&escaped);
  ORACLE_PROBE(corpus, escaped_local, escaped);
  ORACLE_PROBE(corpus, volatile_locals, vol, vol_byte);
  escape(&escaped);
  if (escaped != seed * 3 + 2)
    escaped = 0;
}

int main(void) {
  int i = src_index;
  int seed = src_seed;
  struct outer o = {seed, {(short)-seed, 7, 0.25}, {{0}}, 21, -33, -seed * 1000000000LL};
  uint32_t arr[5] = {10, 20, 30, 40, 50};
  struct node n3 = {(int16_t)(seed + 3), 0};
  struct node n2 = {(int16_t)(seed + 2), &n3};
  struct node n1 = {(int16_t)(seed + 1), &n2};
  int k;
  oracle_start();
  for (k = 0; k < 4; k++) {
    o.arr[k].x = (short)(k - seed);
    o.arr[k].tag = (uint8_t)(k + seed);
    o.arr[k].weight = k * 0.5;
  }
  fields(&o, o);
  elements(&o, arr, i);
  chain(&n1);
  locals(seed);
  return 0;
}
