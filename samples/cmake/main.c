/*
 * cmake-sample: a program with probes from app.d, linked with libgreet.so
 * which has its own (greet_probes.d); both built by CMake with
 * sdtkit_add_provider(). See README for tracing it.
 *
 *   cmake-sample [COUNT [MS]]   handle COUNT items (default 3), MS
 *                               milliseconds apart (default 0)
 *
 * It prints a line for every probe it fires, so that a tracer's view can
 * be checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * app.h includes <sys/sdt.h> itself, asking it for semaphores first:
 * including <sys/sdt.h> before it would give probes without them (and
 * APP_ITEM_ENABLED() would never turn true).
 */
#include "app.h"
#include "greet.h"

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 3;
	long pause_ms = argc > 2 ? atol(argv[2]) : 0;
	char name[32];

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	for (long id = 0; id < count; id++) {
		/* Only worth doing while someone is looking. */
		if (APP_ITEM_ENABLED()) {
			snprintf(name, sizeof(name), "item-%ld", id * 7);
			APP_ITEM(id, name);
			printf("fired item %ld %s\n", id, name);
		}
		greet((int)id, "world");
		if (pause_ms > 0)
			usleep(pause_ms * 1000);
	}
	APP_DONE(count);
	return 0;
}
