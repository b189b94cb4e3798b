/*
 * The probes of the sample worker, as macros in probes.h: WORKER_JOB(id,
 * name) fires the probe tracers see as worker:job, and WORKER_JOB_ENABLED()
 * says whether one is attached right now.
 */
provider worker {
	/* A job is taken: its number and its name. */
	probe job(int id, const char *name);
	/* Every job done so far, traced or not. */
	probe progress(int done);
};
