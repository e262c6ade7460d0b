/* Fixture for xsdt-inspect's tests: an ELF file without stapsdt notes,
 * which `check` must report rather than pass. */
int main(void) { return 0; }
