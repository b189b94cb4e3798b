/* SPDX-License-Identifier: MIT */
/*
 * The traced process of the libstapsdt tracer tests: it declares provider
 * `sdttest' with probes covering every argument type, their extremes,
 * strings and 0..12 arguments, loads it, and fires everything every few
 * milliseconds, so a tracer attached by -p PID sees each probe soon.
 * Probe str's arguments are described (probeSetArgInfo): a string `msg'
 * and an int `len'; the other probes' are not.
 *
 * It reports on stdout (line-buffered), for the test script to wait on:
 *   ready PID FD-OR-FILE      once loaded
 *   enabled N                 whenever probeIsEnabled(a1) changes
 *   unloaded / loaded         after --cycle's unload and reload
 * and runs until SIGTERM or SIGINT (then destroys the provider and exits
 * normally), or for --seconds.
 *
 * Options: --file (file placement), --seconds S, --cycle MS (unload after
 * MS, keep firing, reload after MS more, repeat), --when-traced (start
 * those cycles only once probe a2 is traced, so that a tracer attaches to
 * a loaded provider first), --provider NAME (instead of sdttest, for
 * tracers whose event names must not clash between parallel tests).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libstapsdt.h"

static SDTProvider_t *prov;
static SDTProbe_t *a[SDT_MAX_ARGS + 1]; /* aN: N int64 arguments */
static SDTProbe_t *u6, *s6, *str, *m12;
static char message[] = "hello from sdttest";
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static SDTProbe_t *add(const char *name, int argc, const ArgType_t *types)
{
	SDTProbe_t *p = providerAddProbeArgs(prov, name, argc, types);

	if (!p) {
		fprintf(stderr, "probe-host: %s\n", prov->error);
		exit(1);
	}
	return p;
}

static void declare(void)
{
	static const ArgType_t t64[SDT_MAX_ARGS] = {
		int64, int64, int64, int64, int64, int64,
		int64, int64, int64, int64, int64, int64,
	};
	static const ArgType_t tu6[] = { uint8,	 uint16, uint32,
					 uint64, int8,	 int16 };
	static const ArgType_t ts6[] = {
		int32, int64, int8, int16, int32, int64
	};
	static const ArgType_t tstr[] = { uint64, int32 };
	static const ArgType_t tm12[] = { int8,	 uint8,	 int16, uint16,
					  int32, uint32, int64, uint64,
					  int8,	 int16,	 int32, int64 };
	char name[8];

	for (int n = 0; n <= SDT_MAX_ARGS; n++) {
		snprintf(name, sizeof(name), "a%d", n);
		a[n] = add(name, n, t64);
	}
	u6 = add("u6", 6, tu6);
	s6 = add("s6", 6, ts6);
	str = add("str", 2, tstr);
	/* Tools learn that str's first argument is a string. */
	if (probeSetArgInfo(str, 0, "const char*", "msg") < 0 ||
	    probeSetArgInfo(str, 1, "int", "len") < 0) {
		fprintf(stderr, "probe-host: %s\n", prov->error);
		exit(1);
	}
	m12 = add("m12", 12, tm12);
}

/* Argument K of probe aN is 1000 * N + K + 1: every value tells its slot. */
#define V(n, k) ((uint64_t)(1000 * (n) + (k) + 1))

static void fire_all(void)
{
	probeFire(a[0]);
	probeFire(a[1], V(1, 0));
	probeFire(a[2], V(2, 0), V(2, 1));
	probeFire(a[3], V(3, 0), V(3, 1), V(3, 2));
	probeFire(a[4], V(4, 0), V(4, 1), V(4, 2), V(4, 3));
	probeFire(a[5], V(5, 0), V(5, 1), V(5, 2), V(5, 3), V(5, 4));
	probeFire(a[6], V(6, 0), V(6, 1), V(6, 2), V(6, 3), V(6, 4), V(6, 5));
	probeFire(a[7], V(7, 0), V(7, 1), V(7, 2), V(7, 3), V(7, 4), V(7, 5),
		  V(7, 6));
	probeFire(a[8], V(8, 0), V(8, 1), V(8, 2), V(8, 3), V(8, 4), V(8, 5),
		  V(8, 6), V(8, 7));
	probeFire(a[9], V(9, 0), V(9, 1), V(9, 2), V(9, 3), V(9, 4), V(9, 5),
		  V(9, 6), V(9, 7), V(9, 8));
	probeFire(a[10], V(10, 0), V(10, 1), V(10, 2), V(10, 3), V(10, 4),
		  V(10, 5), V(10, 6), V(10, 7), V(10, 8), V(10, 9));
	probeFire(a[11], V(11, 0), V(11, 1), V(11, 2), V(11, 3), V(11, 4),
		  V(11, 5), V(11, 6), V(11, 7), V(11, 8), V(11, 9), V(11, 10));
	probeFire(a[12], V(12, 0), V(12, 1), V(12, 2), V(12, 3), V(12, 4),
		  V(12, 5), V(12, 6), V(12, 7), V(12, 8), V(12, 9), V(12, 10),
		  V(12, 11));
	probeFire(u6, (uint64_t)UINT8_MAX, (uint64_t)UINT16_MAX,
		  (uint64_t)UINT32_MAX, (uint64_t)UINT64_MAX,
		  (uint64_t)INT8_MIN, (uint64_t)INT16_MIN);
	probeFire(s6, (uint64_t)INT32_MIN, (uint64_t)INT64_MIN,
		  (uint64_t)INT8_MAX, (uint64_t)INT16_MAX, (uint64_t)INT32_MAX,
		  (uint64_t)INT64_MAX);
	probeFire(str, (uint64_t)(uintptr_t)message, (uint64_t)strlen(message));
	probeFire(m12, (uint64_t)INT8_MIN, (uint64_t)UINT8_MAX,
		  (uint64_t)INT16_MIN, (uint64_t)UINT16_MAX,
		  (uint64_t)INT32_MIN, (uint64_t)UINT32_MAX,
		  (uint64_t)INT64_MIN, (uint64_t)UINT64_MAX, (uint64_t)INT8_MAX,
		  (uint64_t)INT16_MAX, (uint64_t)INT32_MAX,
		  (uint64_t)INT64_MAX);
}

static void load(void)
{
	if (providerLoad(prov) < 0) {
		fprintf(stderr, "probe-host: %s\n", prov->error);
		exit(1);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 600, cycle = 0, start, next_cycle;
	const char *name = "sdttest";
	int enabled = 0, loaded = 1, when_traced = 0, cycling;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--file") == 0)
			;
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--cycle") == 0 && i + 1 < argc)
			cycle = atof(argv[++i]) / 1000;
		else if (strcmp(argv[i], "--when-traced") == 0)
			when_traced = 1;
		else if (strcmp(argv[i], "--provider") == 0 && i + 1 < argc)
			name = argv[++i];
		else {
			fprintf(stderr, "usage: probe-host [--file] "
					"[--seconds S] [--cycle MS] "
					"[--when-traced] [--provider NAME]\n");
			return 2;
		}
	}
	prov = providerInit(name);
	if (!prov)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--file") == 0)
			providerUseMemfd(prov, memfd_disabled);
	declare();
	load();
	/* BPF cannot fault pages in: make sure the string is resident. */
	message[0] = 'h';
	printf("ready %d %s\n", (int)getpid(), prov->_filename);
	start = now();
	next_cycle = start + cycle;
	cycling = cycle > 0 && !when_traced;
	while (!stop && now() - start < seconds) {
		int e;

		fire_all();
		e = probeIsEnabled(a[1]);
		/* The header's inline check and the library's function agree
		 * (twice in a row: a tracer may attach between two reads). */
		if (e != (probeIsEnabled)(a[1]) &&
		    probeIsEnabled(a[1]) != (probeIsEnabled)(a[1]))
			printf("mismatch\n");
		if (e != enabled)
			printf("enabled %d\n", e);
		enabled = e;
		if (!cycling && cycle > 0 && probeIsEnabled(a[2])) {
			cycling = 1;
			next_cycle = now() + cycle;
		}
		if (cycling && now() >= next_cycle) {
			if (loaded)
				providerUnload(prov);
			else
				load();
			loaded = !loaded;
			printf("%s\n", loaded ? "loaded" : "unloaded");
			next_cycle = now() + cycle;
		}
		usleep(2000);
	}
	providerDestroy(prov);
	return 0;
}
