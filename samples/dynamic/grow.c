/* SPDX-License-Identifier: MIT */
/*
 * A toy runtime whose probes appear as its code does, the way a JIT's do:
 * every second it "compiles" the next function named on the command line
 * and declares a probe for it, then "runs" every function compiled so
 * far, firing its probe. The provider is loaded once, with the probes the
 * runtime has from the start; each new probe is added with
 * providerExtend(), which leaves the loaded probes, and the tracers
 * attached to them, alone. (Unloading and loading again would move every
 * probe, and a running trace would stop counting without a word.)
 *
 *   grow [-s SECONDS] NAME...
 *
 * Provider `growjit': probe tick(N) once a second from the start, and one
 * probe per compiled function, NAME(N, CALLS). See README for tracing it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libstapsdt.h>

struct function {
	const char *name;
	SDTProbe_t *probe;
	uint64_t calls;
};

/* Declares F's probe and makes it live; 0, or -1 with the reason out. */
static int compile(SDTProvider_t *prov, struct function *f)
{
	f->probe = providerAddProbe(prov, f->name, 2, uint64, uint64);
	if (!f->probe || providerExtend(prov) < 0) {
		fprintf(stderr, "grow: function %s: %s\n", f->name,
			prov->error);
		return -1;
	}
	printf("grow: compiled %s\n", f->name);
	return 0;
}

int main(int argc, char **argv)
{
	struct function *fn;
	SDTProvider_t *prov;
	SDTProbe_t *tick;
	long seconds = 3600;
	int first = 1, n, compiled = 0;

	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		seconds = atol(argv[2]);
		first = 3;
	}
	n = argc - first;
	if (n < 1) {
		fprintf(stderr, "usage: grow [-s SECONDS] NAME...\n");
		return 2;
	}
	fn = calloc((size_t)n, sizeof(*fn));
	prov = providerInit("growjit");
	if (!fn || !prov)
		return 1;
	for (int i = 0; i < n; i++)
		fn[i].name = argv[first + i];
	/* What the runtime has from the start, loaded once. */
	tick = providerAddProbe(prov, "tick", 1, uint64);
	if (!tick || providerLoad(prov) < 0) {
		fprintf(stderr, "grow: %s\n", prov->error);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("grow: pid %d, provider growjit loaded\n", (int)getpid());
	for (long t = 0; t < seconds; t++) {
		if (compiled < n && compile(prov, &fn[compiled++]) < 0)
			return 1;
		probeFire(tick, (uint64_t)t);
		for (int i = 0; i < compiled; i++)
			/* Build arguments only when someone listens. */
			if (probeIsEnabled(fn[i].probe))
				probeFire(fn[i].probe, (uint64_t)t,
					  ++fn[i].calls);
		sleep(1);
	}
	providerDestroy(prov);
	free(fn);
	return 0;
}
