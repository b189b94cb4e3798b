/*
 * A probe guarded by its semaphore: the summary string costs a snprintf,
 * so it is only built while a tracer is attached (the tracer or kernel
 * counts server_stats_semaphore up). dtrace -h headers declare the
 * semaphore and an _ENABLED() macro for you; here it is written by hand.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>

/* One per probe, in section .probes, named PROVIDER_PROBE_semaphore. */
unsigned short server_stats_semaphore __attribute__((section(".probes")));

#define SERVER_STATS_ENABLED()                                                 \
	__builtin_expect(*(volatile unsigned short *)&server_stats_semaphore, 0)

void stats_report(unsigned long served, unsigned long bytes)
{
	char summary[96];

	if (SERVER_STATS_ENABLED()) {
		snprintf(summary, sizeof(summary), "%lu served, %lu bytes",
			 served, bytes);
		DTRACE_PROBE3(server, stats, served, bytes, summary);
	}
}
