provider httpd {
  probe request__start(const char *path, int fd);
  probe request__done(int status) : (long status);
};
