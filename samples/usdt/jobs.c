/* SPDX-License-Identifier: MIT */
/*
 * A job loop with USDT probes from <usdt.h>, in one file: no provider
 * (.d) file and no dtrace -G step, semaphore included.
 *
 *   jobs [COUNT [MILLISECONDS]]
 *
 * Runs COUNT jobs (default 5), MILLISECONDS apart (default 200). Each job
 * fires jobs:start (id, size) and jobs:done (id, status); jobs:report
 * (id, text) carries a line of text that costs a formatting call, made
 * only while a tracer is attached to jobs:report (USDT_IS_ACTIVE). Each
 * job prints whether it was.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <usdt.h>

static int run_job(int id, long size)
{
	USDT(jobs, start, id, size);
	int status = size % 7 == 0 ? 1 : 0;

	/* The report's text is built only while someone reads it. */
	int traced = USDT_IS_ACTIVE(jobs, report);
	if (traced) {
		char text[64];

		snprintf(text, sizeof(text), "job %d: %ld bytes, status %d", id,
			 size, status);
		USDT_WITH_SEMA(jobs, report, id, text);
	}
	USDT(jobs, done, id, status);
	return traced;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 5;
	long ms = argc > 2 ? atol(argv[2]) : 200;
	struct timespec gap = { ms / 1000, ms % 1000 * 1000000 };

	for (int id = 1; id <= count; id++) {
		int traced = run_job(id, id * 1000L);

		printf("job %d report %s\n", id,
		       traced ? "traced" : "untraced");
		fflush(stdout);
		nanosleep(&gap, NULL);
	}
	return 0;
}
