/*
 * libgreet.so: a shared library with probes of its own, to show that
 * sdtkit_add_provider() works for libraries as for programs: the
 * semaphore object is linked into the library, and GREET_HELLO_ENABLED()
 * turns true when a tracer attaches to the library's probe.
 */
#include <stdio.h>

#include "greet.h"
#include "greet_probes.h"

void greet(int n, const char *who)
{
	if (GREET_HELLO_ENABLED()) {
		GREET_HELLO(n, who);
		printf("fired hello %d %s\n", n, who);
	}
}
