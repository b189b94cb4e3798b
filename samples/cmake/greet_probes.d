/*
 * The library's own provider: greet:hello fires in libgreet.so, with the
 * number of the greeting and who is greeted.
 */
provider greet {
	probe hello(int n, const char *who);
};
