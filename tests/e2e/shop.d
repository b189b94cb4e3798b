/* A provider whose probes say what their arguments are: the typed-probe
   path from a .d file to a running trace (tests/e2e/typed.sh). */
provider e2eshop {
	probe order__start(const char *customer, int items, unsigned long long cents);
	probe order__done(const char *customer, long status, short code);
	probe tick(unsigned char);
};
