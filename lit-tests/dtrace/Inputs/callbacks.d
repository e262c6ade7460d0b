/* Function-pointer parameters, with and without a name: their parentheses
 * and commas are part of one parameter's type. */
provider sorter {
	probe start(void (*)(int), int (*compare)(const void *, const void *), int count);
};
