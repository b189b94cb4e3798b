/* SPDX-License-Identifier: MIT */
/*
 * libstapsdt at JIT scale, for bench/libstapsdt-jit.sh: a runtime that
 * declares one probe as each function is compiled.
 *
 *   libstapsdt-jit extend N
 *	loads a provider of one probe, then N times adds one 2-argument
 *	probe and calls providerExtend(). At 50, 1000, 10000 and 20000
 *	additions (those up to N) it prints the median microseconds of the
 *	last 50 extends and the process's descriptors and mappings; at the
 *	end, the milliseconds that unload and destroy take.
 *   libstapsdt-jit hold N
 *	the same additions, untimed, then "grown PID" and a wait for a
 *	signal: the bench times `sdt-list -p' on the grown process.
 *   libstapsdt-jit reload N
 *	the same change the way a library without providerExtend() makes
 *	it: a loaded provider of K-1 probes, add one, unload and load again,
 *	median microseconds, for K = 50, 1000, 10000, 20000 (up to N).
 *
 * Output lines are "NAME VALUE UNIT". The reload mode builds over the
 * public libstapsdt's header too, as the same-run reference.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "libstapsdt.h"
#include "resources.h"

#define WINDOW 50

static const long checkpoints[] = { 50, 1000, 10000, 20000 };
#define NCHECK (sizeof(checkpoints) / sizeof(checkpoints[0]))

static void die(SDTProvider_t *p, const char *what)
{
	fprintf(stderr, "libstapsdt-jit: %s: %s\n", what,
		p && p->error ? p->error : "failed");
	exit(1);
}

static SDTProbe_t *add(SDTProvider_t *p, long i)
{
	char name[32];
	SDTProbe_t *probe;

	snprintf(name, sizeof(name), "fn%ld", i);
	probe = providerAddProbe(p, name, 2, int64, uint32);
	if (!probe)
		die(p, "add");
	return probe;
}

static void report(long at, double *window)
{
	int objects;

	printf("extend_us_%ld %.2f us\n", at, bench_median(window, WINDOW));
	printf("fds_%ld %d count\n", at, count_fds());
	printf("maps_%ld %d count\n", at,
	       count_maps_of("libstapsdt-", &objects));
	printf("object_maps_%ld %d count\n", at, objects);
}

#ifdef SDT_SEMAPHORE_ENABLED
static int extend(long n)
{
	SDTProvider_t *p = providerInit("jitbench");
	double window[WINDOW], s;
	size_t next = 0;

	if (!p)
		return 1;
	add(p, 0);
	if (providerLoad(p) != 0)
		die(p, "load");
	for (long i = 1; i <= n; i++) {
		SDTProbe_t *probe = add(p, i);

		s = bench_now_us();
		if (providerExtend(p) != 0)
			die(p, "extend");
		window[(i - 1) % WINDOW] = bench_now_us() - s;
		probeFire(probe, i, 7);
		if (next < NCHECK && i == checkpoints[next]) {
			report(i, window);
			next++;
		}
	}
	s = bench_now_us();
	if (providerUnload(p) != 0)
		die(p, "unload");
	providerDestroy(p);
	printf("unload_destroy_ms %.2f ms\n", (bench_now_us() - s) / 1e3);
	return 0;
}

static int hold(long n)
{
	SDTProvider_t *p = providerInit("jitbench");

	if (!p)
		return 1;
	add(p, 0);
	if (providerLoad(p) != 0)
		die(p, "load");
	for (long i = 1; i <= n; i++) {
		add(p, i);
		if (providerExtend(p) != 0)
			die(p, "extend");
	}
	printf("grown %ld\n", (long)getpid());
	pause();
	return 0;
}
#else
static int extend(long n)
{
	(void)n;
	fprintf(stderr, "libstapsdt-jit: no providerExtend() here\n");
	return 2;
}

static int hold(long n)
{
	return extend(n);
}
#endif

/* Adding the K-th probe by unload and load: median of RUNS. */
static double reload_us(long k, int runs)
{
	SDTProvider_t *p = providerInit("jitbench");
	double t[16];

	for (long i = 0; i < k - 1; i++)
		add(p, i);
	if (providerLoad(p) != 0)
		die(p, "load");
	for (int r = 0; r < runs; r++) {
		double s = bench_now_us();

		add(p, k + r);
		if (providerUnload(p) != 0 || providerLoad(p) != 0)
			die(p, "reload");
		t[r] = bench_now_us() - s;
	}
	providerDestroy(p);
	return bench_median(t, (size_t)runs);
}

static int reload(long n)
{
	for (size_t c = 0; c < NCHECK && checkpoints[c] <= n; c++) {
		long k = checkpoints[c];

		printf("reload_us_%ld %.2f us\n", k,
		       reload_us(k, k >= 10000	? 1
				    : k >= 1000 ? 3
						: 9));
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n < 1 || n > 10000000) {
		fprintf(stderr, "usage: libstapsdt-jit extend|reload N\n");
		return 2;
	}
	if (strcmp(argv[1], "extend") == 0)
		return extend(n);
	if (strcmp(argv[1], "hold") == 0)
		return hold(n);
	if (strcmp(argv[1], "reload") == 0)
		return reload(n);
	fprintf(stderr, "usage: libstapsdt-jit extend|reload N\n");
	return 2;
}
