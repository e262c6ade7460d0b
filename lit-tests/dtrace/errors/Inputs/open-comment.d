provider shop {
	probe open(int fd);
/* never closed
	probe close(int fd);
};
