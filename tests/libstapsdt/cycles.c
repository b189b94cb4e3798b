/* SPDX-License-Identifier: MIT */
/*
 * Load/unload cycles give everything back: after each unload the process
 * has the descriptors and mappings it had before the first load, and no
 * mapping of a libstapsdt object. Runtimes that add probes unload and
 * reload all day; cycles.sh runs this under a low `ulimit -n'.
 * `cycles N memfd|file'.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libstapsdt.h"
#include "resources.h"

/* Mappings in /proc/self/maps, and how many are this test's objects. */
static int count_maps(int *objects)
{
	return count_maps_of("libstapsdt-cyc", objects);
}

static int check(const char *when, long cycle, int fds, int maps)
{
	int objects, m = count_maps(&objects), f = count_fds();

	if (f == fds && m == maps && objects == 0)
		return 0;
	fprintf(stderr,
		"cycles: %s %ld: %d fds (%d before), %d mappings (%d before), "
		"%d of an object\n",
		when, cycle, f, fds, m, maps, objects);
	return -1;
}

/* One load, fire and unload; the object must be mapped while loaded. */
static int cycle(SDTProvider_t *p, SDTProbe_t *probe, long i)
{
	int objects;

	if (providerLoad(p) != 0) {
		fprintf(stderr, "cycles: load %ld: %s\n", i, p->error);
		return -1;
	}
	probeFire(probe, i);
	count_maps(&objects);
	if (objects == 0) {
		fprintf(stderr, "cycles: load %ld: the object is not mapped\n",
			i);
		return -1;
	}
	if (providerUnload(p) != 0) {
		fprintf(stderr, "cycles: unload %ld: %s\n", i, p->error);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int file = argc > 2 && strcmp(argv[2], "file") == 0;
	SDTProvider_t *p = providerInit("cyc-le"), *other;
	SDTProbe_t *probe;
	int fds, maps, objects;

	providerUseMemfd(p, file ? memfd_disabled : memfd_enabled);
	probe = providerAddProbe(p, "tick", 1, int64);
	providerAddProbe(p, "tock", 2, int32, uint8);
	/*
	 * The counts to keep are those after one cycle: what the C library
	 * maps once per thread on first use (glibc 2.41's getrandom() state,
	 * from mkdtemp()) is no leak.
	 */
	if (cycle(p, probe, -1) < 0)
		return 1;
	maps = count_maps(&objects);
	fds = count_fds();
	for (long i = 0; i < n; i++) {
		if (cycle(p, probe, i) < 0)
			return 1;
		if ((i % (n / 20 + 1) == 0 || i == n - 1) &&
		    check("after unload", i, fds, maps) < 0)
			return 1;
	}
	/* Another provider still loads: no descriptor was left behind. */
	other = providerInit("cyc-other");
	providerAddProbe(other, "x", 0);
	if (providerLoad(other) != 0) {
		fprintf(stderr, "cycles: another provider: %s\n", other->error);
		return 1;
	}
	providerDestroy(other);
	providerDestroy(p);
	if (check("after destroy", n, fds, maps) < 0)
		return 1;
	printf("cycles: %ld %s load/unload cycles: %d fds and %d mappings "
	       "throughout\n",
	       n, file ? "file" : "memfd", fds, maps);
	return 0;
}
