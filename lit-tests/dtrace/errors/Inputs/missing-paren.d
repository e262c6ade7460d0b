provider shop {
	probe open(int fd);
	probe close int fd);
};
