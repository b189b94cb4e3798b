/*
 * A tiny request loop with static probes: what an application adds to be
 * traceable with bpftrace, gdb or perf, at the cost of a nop per probe
 * when nobody traces it. Copy the pattern: include <sys/sdt.h>, put
 * DTRACE_PROBEn where something worth seeing happens, pass plain values.
 *
 *   ./server [REQUESTS]    serves REQUESTS fake requests (default 5)
 */
#include <sys/sdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void stats_report(unsigned long served, unsigned long bytes);

static const char *const paths[] = { "/", "/index.html", "/api/users",
				     "/missing", "/api/orders" };

static int handle(const char *path, long *bytes)
{
	int status = strcmp(path, "/missing") == 0 ? 404 : 200;

	*bytes = status == 200 ? (long)strlen(path) * 100 : 0;
	return status;
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 5;
	unsigned long total = 0;
	char path[64];

	DTRACE_PROBE1(server, start, n);
	for (i = 0; i < n; i++) {
		long bytes;
		int status;

		/* A copy the program wrote: tracers read it from memory. */
		snprintf(path, sizeof(path), "%s", paths[i % 5]);
		DTRACE_PROBE2(server, request, i, path);
		status = handle(path, &bytes);
		DTRACE_PROBE3(server, reply, i, status, bytes);
		total += (unsigned long)bytes;
		stats_report((unsigned long)i + 1, total);
		usleep(20000);
	}
	DTRACE_PROBE(server, stop);
	printf("served %d requests, %lu bytes\n", n, total);
	return 0;
}
