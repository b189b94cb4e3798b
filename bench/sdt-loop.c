/*
 * A loop firing one probe per iteration with ARGS arguments (0, 2, 6 or
 * 12; -1: no probe, the baseline), built against the header named by
 * SDT_HEADER: ours or SystemTap's, and ours with SDTKIT_FAST_ATTACH for
 * the fast site; ARGS 102: the 2-argument probe behind a semaphore test,
 * as dtrace-gen's _ENABLED() makes it, the semaphore never set. bench/
 * sdt-cost.sh counts instructions (callgrind) and, with a second
 * argument, times the loop itself: "ns N" per iteration.
 */
#include SDT_HEADER
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile long sink;
static volatile unsigned short semaphore;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	const char *s = argv[0];
	double start = now_ns();

	for (i = 0; i < n; i++) {
		long x = i * 3;
		int y = (int)i ^ argc;
		unsigned char c = (unsigned char)i;
		short h = (short)(i >> 3);

		(void)x, (void)y, (void)c, (void)h, (void)s;
#if ARGS == 0
		STAP_PROBE(bench, p0);
#elif ARGS == 2
		STAP_PROBE2(bench, p2, x, y);
#elif ARGS == 6
		STAP_PROBE6(bench, p6, x, y, c, h, s, i);
#elif ARGS == 102
		if (__builtin_expect(semaphore, 0))
			STAP_PROBE2(bench, p2, x, y);
#elif ARGS == 12
		STAP_PROBE12(bench, p12, x, y, c, h, s, i, x, y, c, h, s, n);
#endif
		sink = x + y;
	}
	if (argc > 2)
		printf("ns %.3f\n", (now_ns() - start) / (double)n);
	return 0;
}
