/* SPDX-License-Identifier: MIT */
/*
 * The probes.c probe with a semaphore: `probes:gated', fired only while a
 * tracer has the semaphore up. A file of its own because
 * _SDT_HAS_SEMAPHORES gives every probe of a file a semaphore.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

__extension__ volatile unsigned short probes_gated_semaphore
	__attribute__((used, section(".probes"))) = 0;

void fire_gated(int i);

void fire_gated(int i)
{
	if (probes_gated_semaphore)
		DTRACE_PROBE1(probes, gated, i);
}
