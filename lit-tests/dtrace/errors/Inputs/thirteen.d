provider shop {
	probe wide(int, int, int, int, int, int, int, int, int, int, int, int, int);
};
