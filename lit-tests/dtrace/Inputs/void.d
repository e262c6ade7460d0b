/* `(void)` declares no parameter, as in C and D. */
provider lamp {
	probe off(void);
	probe on();
	probe dim(int level);
};
