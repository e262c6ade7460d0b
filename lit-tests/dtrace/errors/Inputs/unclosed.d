provider shop {
	probe open(int fd);
