/* SPDX-License-Identifier: MIT */
/*
 * Extends give everything back at unload: the descriptors and mappings of
 * the process return to what they were before the first load, however
 * many objects the extends added, and no libstapsdt object stays mapped.
 * "Before" is after one warm-up cycle (see main()).
 *
 *   extend-cycles N memfd|file
 *
 * First N add/unload cycles, each on a new provider: load probe a, add b
 * and extend, add c and extend, fire all three, unload, extend again
 * (which loads all three into one object), unload, destroy. Then N / 1000
 * rounds (at least one) of one provider extended 1000 times (while loaded
 * it maps the load's object and the chunks the extends filled: 64 probes,
 * then 128, 256...), then unloaded and destroyed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libstapsdt.h"
#include "resources.h"

#define ROUND 1000

/* Mappings in /proc/self/maps, and how many are this test's objects. */
static int count_maps(int *objects)
{
	return count_maps_of("libstapsdt-ext-cyc", objects);
}

static int fds0, maps0;

static int check(const char *when, long i)
{
	int objects, m = count_maps(&objects), f = count_fds();

	if (f == fds0 && m == maps0 && objects == 0)
		return 0;
	fprintf(stderr,
		"extend-cycles: %s %ld: %d fds (%d before), %d mappings "
		"(%d before), %d of an object\n",
		when, i, f, fds0, m, maps0, objects);
	return -1;
}

static int failed(SDTProvider_t *p, const char *what, long i)
{
	fprintf(stderr, "extend-cycles: %s %ld: %s\n", what, i,
		p->error ? p->error : "(no message)");
	return 1;
}

static SDTProvider_t *new_provider(int file)
{
	SDTProvider_t *p = providerInit("ext-cyc");

	if (p && file)
		providerUseMemfd(p, memfd_disabled);
	return p;
}

static int small_cycle(long i, int file)
{
	SDTProvider_t *p = new_provider(file);
	SDTProbe_t *a, *b, *c;

	if (!p)
		return 1;
	a = providerAddProbe(p, "a", 1, int64);
	if (!a || providerLoad(p) != 0)
		return failed(p, "load", i);
	b = providerAddProbe(p, "b", 2, int32, uint8);
	if (!b || providerExtend(p) != 0)
		return failed(p, "extend b", i);
	c = providerAddProbe(p, "c", 0);
	if (!c || providerExtend(p) != 0)
		return failed(p, "extend c", i);
	if (!a->_fire || !b->_fire || !c->_fire)
		return failed(p, "a probe not published after", i);
	probeFire(a, i);
	probeFire(b, i, 7);
	probeFire(c);
	if (providerUnload(p) != 0)
		return failed(p, "unload", i);
	if (providerExtend(p) != 0 || providerUnload(p) != 0)
		return failed(p, "reload", i);
	providerDestroy(p);
	return 0;
}

/* Objects with room for N single additions: 64 probes, doubling. */
static int chunks_for(int n)
{
	int chunks = 0;

	for (int cap = 64, total = 0; total < n; total += cap, cap *= 2)
		chunks++;
	return chunks;
}

static int big_round(long r, int file)
{
	SDTProvider_t *p = new_provider(file);
	char name[16];
	int objects;

	if (!p || !providerAddProbe(p, "a", 1, int64) || providerLoad(p) != 0)
		return p ? failed(p, "round load", r) : 1;
	for (int i = 0; i < ROUND; i++) {
		SDTProbe_t *probe;

		snprintf(name, sizeof(name), "x%d", i);
		probe = providerAddProbe(p, name, 1, int64);
		if (!probe || providerExtend(p) != 0)
			return failed(p, "round extend", r);
		probeFire(probe, i);
	}
	/* The load's object and the chunks, two mappings each. */
	count_maps(&objects);
	if (objects != 2 * (1 + chunks_for(ROUND))) {
		fprintf(stderr,
			"extend-cycles: round %ld: %d mappings of objects, "
			"not %d\n",
			r, objects, 2 * (1 + chunks_for(ROUND)));
		return 1;
	}
	if (providerUnload(p) != 0)
		return failed(p, "round unload", r);
	providerDestroy(p);
	return check("after round", r) < 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int file = argc > 2 && strcmp(argv[2], "file") == 0, objects;
	long rounds = n / ROUND > 0 ? n / ROUND : 1;

	/*
	 * One cycle first: what the C library maps once per thread on first
	 * use (glibc 2.41's getrandom() state, from mkdtemp()) is no leak.
	 */
	if (small_cycle(-1, file))
		return 1;
	maps0 = count_maps(&objects);
	fds0 = count_fds();
	for (long i = 0; i < n; i++) {
		if (small_cycle(i, file))
			return 1;
		if ((i % (n / 20 + 1) == 0 || i == n - 1) &&
		    check("after cycle", i) < 0)
			return 1;
	}
	for (long r = 0; r < rounds; r++)
		if (big_round(r, file))
			return 1;
	printf("extend-cycles: %ld %s add/unload cycles and %ld rounds of "
	       "%d extends: %d fds and %d mappings after each\n",
	       n, file ? "file" : "memfd", rounds, ROUND, fds0, maps0);
	return 0;
}
