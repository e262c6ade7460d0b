/* The provider of the dtrace.cmake-function test. */
provider demo {
	probe request__start(int fd, const char *path);
	probe idle();
};
