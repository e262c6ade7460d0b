/* A ticket kiosk: the plain shape of a provider file. */
provider kiosk {
	probe boot();
	probe ticket__sold(int seat, long price);
	probe queue(unsigned int waiting, const char *window, void *ctx);
};
