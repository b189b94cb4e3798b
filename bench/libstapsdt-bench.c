/* SPDX-License-Identifier: MIT */
/*
 * Timings for bench/libstapsdt-bench.sh: how long providerLoad() takes for
 * 1, 100 and 1000 probes, and what an untraced probeFire(), probeIsEnabled()
 * and the inline check cost per call, next to a bare indirect call.
 * Adding one probe to a loaded provider of 1000: with providerExtend()
 * (ours only), and by unload, add and load again, the way the public
 * library needs (both).
 * `libstapsdt-bench' prints "NAME VALUE UNIT" lines;
 * `libstapsdt-bench traced N' loads one probe, says "ready PID OBJECT",
 * waits until a tracer is attached, then prints the cost of a traced fire.
 *
 * The same source is also built against the public libstapsdt's header and
 * library, as the same-run reference: our extensions (the inline checks,
 * probeSemaphore) are then left out, found missing by their macro.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "libstapsdt.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Median microseconds of providerLoad() for NPROBES probes. */
static double load_us(int nprobes, int runs)
{
	double *t = calloc((size_t)runs, sizeof(*t)), med;
	char name[32];

	for (int r = 0; r < runs; r++) {
		SDTProvider_t *p = providerInit("benchprov");

		for (int i = 0; i < nprobes; i++) {
			snprintf(name, sizeof(name), "probe%d", i);
			providerAddProbe(p, name, 2, int64, uint32);
		}
		double s = now_ns();
		if (providerLoad(p) != 0) {
			fprintf(stderr, "bench: %s\n", p->error);
			exit(1);
		}
		t[r] = (now_ns() - s) / 1e3;
		providerDestroy(p);
	}
	med = bench_median(t, (size_t)runs);
	free(t);
	return med;
}

/* A loaded provider of NPROBES probes, named as load_us() names them. */
static SDTProvider_t *loaded_provider(int nprobes)
{
	SDTProvider_t *p = providerInit("benchprov");
	char name[32];

	for (int i = 0; i < nprobes; i++) {
		snprintf(name, sizeof(name), "probe%d", i);
		providerAddProbe(p, name, 2, int64, uint32);
	}
	if (providerLoad(p) != 0) {
		fprintf(stderr, "bench: %s\n", p->error);
		exit(1);
	}
	return p;
}

/*
 * Median microseconds of adding one probe to a loaded provider of NPROBES,
 * by unload, add and load (RELOAD, what the public library needs) or, in
 * ours, by add and providerExtend() after PRIOR extends of one probe each.
 */
static double add_one_us(int nprobes, int reload, int prior, int runs)
{
	double *t = calloc((size_t)runs, sizeof(*t)), med;
	char name[32];

	for (int r = 0; r < runs; r++) {
		SDTProvider_t *p = loaded_provider(nprobes);
		int ret;

#ifdef SDT_SEMAPHORE_ENABLED
		for (int i = 0; i < prior; i++) {
			snprintf(name, sizeof(name), "prior%d", i);
			providerAddProbe(p, name, 2, int64, uint32);
			providerExtend(p);
		}
#endif
		double s = now_ns();
		providerAddProbe(p, "added", 2, int64, uint32);
		if (reload) {
			ret = providerUnload(p);
			ret = ret ? ret : providerLoad(p);
		} else {
#ifdef SDT_SEMAPHORE_ENABLED
			ret = providerExtend(p);
#else
			ret = -1;
#endif
		}
		t[r] = (now_ns() - s) / 1e3;
		if (ret != 0) {
			fprintf(stderr, "bench: adding a probe: %s\n",
				p->error ? p->error : "failed");
			exit(1);
		}
		providerDestroy(p);
	}
	med = bench_median(t, (size_t)runs);
	free(t);
	return med;
}

static void (*volatile bare_fn)(SDTProbe_t *, uint64_t, uint64_t);

static __attribute__((noinline)) void empty_fn(SDTProbe_t *p, uint64_t a,
					       uint64_t b)
{
	(void)p, (void)a, (void)b;
	__asm__ __volatile__("");
}

#define N 100000000L

/* Best of 5 runs of LOOP, in ns per iteration. */
#define TIME_LOOP(result, body)                                                \
	do {                                                                   \
		double best = 1e30;                                            \
		for (int rep = 0; rep < 5; rep++) {                            \
			double s = now_ns();                                   \
			for (long i = 0; i < N; i++) {                         \
				body;                                          \
			}                                                      \
			double e = (now_ns() - s) / N;                         \
			if (e < best)                                          \
				best = e;                                      \
		}                                                              \
		result = best;                                                 \
	} while (0)

static int untraced(void)
{
	SDTProvider_t *p = providerInit("benchprov");
	SDTProbe_t *probe = providerAddProbe(p, "fire", 2, int64, uint32);
	volatile int sink = 0;
	double fire, enabled, enabled_call, bare, loop;

	if (providerLoad(p) != 0)
		return 1;
	/* The timing loop alone, for what the checks add to it. */
	TIME_LOOP(loop, __asm__ __volatile__(""));
	bare_fn = empty_fn;
	TIME_LOOP(bare, bare_fn(probe, (uint64_t)i, 7));
	TIME_LOOP(fire, probeFire(probe, (uint64_t)i, 7));
	TIME_LOOP(enabled, if (probeIsEnabled(probe)) sink++);
	/* The library's function, as bindings without the header call it. */
	TIME_LOOP(enabled_call, if ((probeIsEnabled)(probe)) sink++);
#ifdef SDT_SEMAPHORE_ENABLED
	double inl, inl_sema;

	TIME_LOOP(inl, if (probeIsEnabledInline(probe)) sink++);
	/* The one-load form, over a pointer kept while the provider stays
	 * loaded. */
	const volatile unsigned short *sema = probeSemaphore(probe);
	TIME_LOOP(inl_sema, if (SDT_SEMAPHORE_ENABLED(sema)) sink++);
#endif
	printf("load1 %.2f us\n", load_us(1, 301));
	printf("load100 %.2f us\n", load_us(100, 101));
	printf("load1000 %.2f us\n", load_us(1000, 21));
	printf("reload1000 %.2f us\n", add_one_us(1000, 1, 0, 21));
#ifdef SDT_SEMAPHORE_ENABLED
	printf("extend1000 %.2f us\n", add_one_us(1000, 0, 0, 51));
	printf("extend1 %.2f us\n", add_one_us(1, 0, 0, 301));
	printf("extend1000_after100 %.2f us\n", add_one_us(1000, 0, 100, 21));
#endif
	printf("loop %.3f ns\n", loop);
	printf("bare %.3f ns\n", bare);
	printf("fire %.3f ns\n", fire);
	printf("enabled %.3f ns\n", enabled);
	printf("enabled_call %.3f ns\n", enabled_call);
#ifdef SDT_SEMAPHORE_ENABLED
	printf("inline %.3f ns\n", inl);
	printf("inline_sema %.3f ns\n", inl_sema);
#endif
	providerDestroy(p);
	return sink == -1;
}

static int traced(long n)
{
	SDTProvider_t *p = providerInit("benchprov");
	SDTProbe_t *probe = providerAddProbe(p, "traced", 2, int64, uint32);
	double best = 1e30;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (providerLoad(p) != 0)
		return 1;
	printf("ready %d %s\n", (int)getpid(), p->_filename);
	for (int i = 0; i < 3000 && !probeIsEnabled(probe); i++)
		usleep(10000);
	if (!probeIsEnabled(probe)) {
		printf("error: no tracer attached\n");
		return 1;
	}
	/* Warm up: the kernel optimizes a uprobe after its first hits. */
	for (long i = 0; i < 1000; i++)
		probeFire(probe, (uint64_t)i, 7);
	for (int rep = 0; rep < 3; rep++) {
		double s = now_ns();

		for (long i = 0; i < n; i++)
			probeFire(probe, (uint64_t)i, 7);
		double e = (now_ns() - s) / n;
		if (e < best)
			best = e;
	}
	printf("traced %.1f ns\n", best);
	providerDestroy(p);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "traced") == 0)
		return traced(atol(argv[2]));
	return untraced();
}
