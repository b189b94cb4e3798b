/* SPDX-License-Identifier: MIT */
/*
 * Eight threads fire probes and ask whether they are enabled, without
 * pause, while the main thread loads and unloads their provider in a loop
 * (each unload unmaps the object: the fires' marks must hold it off).
 * Built with the library's sources under ASan and TSan by stress.sh: a fire
 * racing an unload must be a no-op, never a crash, a bad read or a race.
 * `stress ITERATIONS [file]'.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libstapsdt.h"

#define THREADS 8

static SDTProbe_t *probes[3];
static int done;

static void *firer(void *arg)
{
	unsigned long fires = 0, enabled = 0;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		probeFire(probes[0]);
		probeFire(probes[1], 1, 2, 3);
		probeFire(probes[2], 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
		/* The library's calls: the header's inline checks read the
		 * object directly, so they are for loaded providers only. */
		enabled += (probeIsEnabled)(probes[1]);
		enabled += (probeIsEnabled)(probes[2]);
		fires += 3;
	}
	return (void *)(uintptr_t)(fires + 0 * enabled);
}

int main(int argc, char **argv)
{
	int iterations = argc > 1 ? atoi(argv[1]) : 200;
	SDTProvider_t *p = providerInit("stress");
	pthread_t th[THREADS];
	unsigned long total = 0;

	if (argc > 2 && strcmp(argv[2], "file") == 0)
		providerUseMemfd(p, memfd_disabled);
	probes[0] = providerAddProbe(p, "zero", 0);
	probes[1] = providerAddProbe(p, "three", 3, int32, uint64, int8);
	probes[2] = providerAddProbe(p, "twelve", 12, int8, uint8, int16,
				     uint16, int32, uint32, int64, uint64, int8,
				     int16, int32, int64);
	if (!probes[0] || !probes[1] || !probes[2]) {
		fprintf(stderr, "stress: %s\n", p->error);
		return 1;
	}
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, firer, NULL);
	for (int i = 0; i < iterations; i++) {
		if (providerLoad(p) != 0) {
			fprintf(stderr, "stress: load %d: %s\n", i, p->error);
			return 1;
		}
		if (providerUnload(p) != 0) {
			fprintf(stderr, "stress: unload %d: %s\n", i, p->error);
			return 1;
		}
	}
	/* End loaded: destroy must unload first. */
	if (providerLoad(p) != 0)
		return 1;
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < THREADS; i++) {
		void *r;

		pthread_join(th[i], &r);
		total += (uintptr_t)r;
	}
	providerDestroy(p);
	printf("stress: %d load/unload cycles, %lu fires from %d threads\n",
	       iterations, total, THREADS);
	return 0;
}
