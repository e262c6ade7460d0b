provider shop {
	probe open(int fd);
	probe open(long fd);
};
