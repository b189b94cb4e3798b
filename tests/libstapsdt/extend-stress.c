/* SPDX-License-Identifier: MIT */
/*
 * Threads fire probes without pause, those being added included, while
 * the main thread adds probes with providerExtend() one at a time and
 * now and then unloads (so that the next extend loads everything again).
 * Built with the library's sources under ASan+UBSan and TSan, by gcc and
 * by clang (extend-stress.sh): a probe fires as a no-op until its extend
 * publishes it, then through its stub; never a bad read, never a race.
 *
 *   extend-stress ITERATIONS [file]
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libstapsdt.h"

#define THREADS 4
#define MAX_PROBES 4096
#define UNLOAD_EVERY 64

static SDTProbe_t *probes[MAX_PROBES];
static size_t nprobes; /* published to the firers with release */
static int done;

static void *firer(void *arg)
{
	unsigned long fires = 0, enabled = 0;
	size_t i = (uintptr_t)arg;

	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		size_t n = __atomic_load_n(&nprobes, __ATOMIC_ACQUIRE);
		SDTProbe_t *p = probes[i++ % n];

		probeFire(p, fires, 2, 3);
		/* The library's call: the inline one is for loaded providers.
		 */
		enabled += (probeIsEnabled)(p);
		/* The newest probe, the one an extend may be publishing. */
		probeFire(probes[n - 1], fires);
		fires += 2;
	}
	return (void *)(uintptr_t)(fires + 0 * enabled);
}

static int add(SDTProvider_t *p, int i)
{
	char name[16];

	snprintf(name, sizeof(name), "p%d", i);
	probes[i] = providerAddProbe(p, name, 3, int64, int32, uint8);
	if (!probes[i]) {
		fprintf(stderr, "extend-stress: add %d: %s\n", i, p->error);
		return -1;
	}
	__atomic_store_n(&nprobes, (size_t)i + 1, __ATOMIC_RELEASE);
	return 0;
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 500, unloads = 0;
	SDTProvider_t *p = providerInit("xstress");
	pthread_t th[THREADS];
	unsigned long total = 0;

	if (iterations < 1 || iterations >= MAX_PROBES)
		return 2;
	if (argc > 2 && strcmp(argv[2], "file") == 0)
		providerUseMemfd(p, memfd_disabled);
	if (add(p, 0) < 0 || providerLoad(p) != 0)
		return 1;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, firer, (void *)(uintptr_t)i);
	for (int i = 1; i <= iterations; i++) {
		if (add(p, i) < 0)
			return 1;
		if (providerExtend(p) != 0) {
			fprintf(stderr, "extend-stress: extend %d: %s\n", i,
				p->error);
			return 1;
		}
		if (i % UNLOAD_EVERY == 0) {
			if (providerUnload(p) != 0) {
				fprintf(stderr,
					"extend-stress: unload %d: %s\n", i,
					p->error);
				return 1;
			}
			unloads++;
		}
	}
	/* End loaded: destroy must give back every object. */
	if (providerExtend(p) != 0)
		return 1;
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < THREADS; i++) {
		void *r;

		pthread_join(th[i], &r);
		total += (uintptr_t)r;
	}
	providerDestroy(p);
	printf("extend-stress: %d extends, %d unloads, %lu fires from %d "
	       "threads\n",
	       iterations, unloads, total, THREADS);
	return 0;
}
