/* Array elements at a variable index: the shape where a "nor" operand
 * becomes base + index*scale, SIB on x86 (16(%rdi,%rsi,2)). */
struct record {
  long header[2];
  short samples[32];
};

int table[16];

__attribute__((noinline)) short probe_field_element(const struct record *r,
                                                    long i) {
  IMPL_PROBE(catalog, field_element, r->samples[i]);
  return r->samples[i];
}

__attribute__((noinline)) int probe_pointer_element(const int *p, long i) {
  IMPL_PROBE(catalog, pointer_element, p[i]);
  return p[i];
}

__attribute__((noinline)) int probe_global_element(int i) {
  IMPL_PROBE(catalog, global_element, table[i]);
  return table[i];
}

int main(int argc, char **argv) {
  static struct record rec;
  (void)argv;
  for (int i = 0; i < 32; i++)
    rec.samples[i] = (short)(i * 3);
  for (int i = 0; i < 16; i++)
    table[i] = i * 7;
  return (probe_field_element(&rec, argc + 4) +
          probe_pointer_element(table, argc) + probe_global_element(argc + 1)) ==
         0;
}
