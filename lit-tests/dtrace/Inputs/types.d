/* Parameter types a provider declares: the generated macros are untyped,
 * as SystemTap's are, so these only have to be read. */
provider typeshop {
	probe ints(char c, signed char sc, unsigned char uc, short s, unsigned short us, int i, unsigned u, long l, unsigned long ul, long long ll, unsigned long long ull);
	probe pointers(const char *name, char *buffer, void *any, const void *ro, struct shelf *shelf, int **grid);
	probe handles(uintptr_t handle, intptr_t offset, size_t size, uint8_t b, int16_t h, uint32_t w, int64_t q);
	probe qualified(const volatile unsigned int flags, unsigned const char tag);
};
