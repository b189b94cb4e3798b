/*
 * A pretend server, to show the one thing dtrace -h gives that a bare
 * <sys/sdt.h> does not: PROBE_ENABLED(), which is true only while a tracer
 * is attached, so the program can skip work that only the probe needs
 * (here: formatting the request's path).
 *
 *   sdt-sample [COUNT]   handle COUNT requests (default 10), 10 ms apart
 *
 * It prints a line whenever the request probe is switched on or off, and
 * one per request fired while on, so that it can be watched from outside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* First: it asks <sys/sdt.h> for semaphores before including it. */
#include "probes.h"

static unsigned long long now_usecs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Stands for the costly work worth skipping when nobody is looking. */
static void describe_request(long id, char *buf, size_t len)
{
	snprintf(buf, len, "/items/%ld?page=%ld", id * 7, id % 3);
}

int main(int argc, char **argv)
{
	long count = argc > 1 ? atol(argv[1]) : 10;
	int was_on = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	for (long id = 0; id < count; id++) {
		unsigned long long start = now_usecs();
		int on = SAMPLE_REQUEST_START_ENABLED() != 0;

		if (on != was_on) {
			printf("request__start %s at %ld\n",
			       on ? "enabled" : "disabled", id);
			was_on = on;
		}
		if (on) {
			char path[64];

			describe_request(id, path, sizeof(path));
			SAMPLE_REQUEST_START(id, path);
			printf("fired %ld %s\n", id, path);
		}
		SAMPLE_TICK(id);
		usleep(10000);
		SAMPLE_REQUEST_DONE(id, 200, now_usecs() - start);
	}
	return 0;
}
