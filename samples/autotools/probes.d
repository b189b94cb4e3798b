/*
 * The probes of the sample server. Each becomes a macro in probes.h,
 * upper-cased with `__' turned into `_': SAMPLE_REQUEST_START(id, path)
 * fires the probe tracers see as sample:request__start, and
 * SAMPLE_REQUEST_START_ENABLED() says whether one is attached right now.
 */
provider sample {
	/* A request arrives: its number and its path. */
	probe request__start(long id, const char *path);
	/* It was answered: number, status, and how long it took in us. */
	probe request__done(long id, int status, unsigned long long usecs);
	/* Once per loop, traced or not; no expensive arguments. */
	probe tick(long n);
};
