/*
 * sdt-worker: a worker taking numbered jobs, with probes from probes.d
 * built by meson (see meson.build and README.md).
 *
 *   sdt-worker [JOBS [MS]]   take JOBS jobs (default 5), MS ms apart
 *
 * A job's name is only formatted while a tracer listens to worker:job
 * (WORKER_JOB_ENABLED()). It prints a line per job it fires the probe
 * for, so that a tracer's view can be checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* First: it asks <sys/sdt.h> for semaphores before including it. */
#include "probes.h"

int main(int argc, char **argv)
{
	int jobs = argc > 1 ? atoi(argv[1]) : 5;
	int pause_ms = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	for (int id = 1; id <= jobs; id++) {
		if (WORKER_JOB_ENABLED()) {
			char name[32];

			snprintf(name, sizeof(name), "job-%03d", id);
			WORKER_JOB(id, name);
			printf("fired job %d %s\n", id, name);
		}
		WORKER_PROGRESS(id);
		if (pause_ms > 0)
			usleep(pause_ms * 1000);
	}
	return 0;
}
