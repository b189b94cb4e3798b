/*
 * The _SDT_HAS_SEMAPHORES path with the semaphore defined in the same
 * program, not by a dtrace -G object: tests/sdt/sweep.c calls in here.
 * Linked with --gc-sections and LTO too, where only the probe's note and
 * the asm reference keep the semaphore alive.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

int fire_gated(int n);

__extension__ unsigned short sweep_gated_semaphore
	__attribute__((section(".probes"))) = 0;

int fire_gated(int n)
{
	if (!sweep_gated_semaphore)
		return 0;
	STAP_PROBE1(sweep, gated, n);
	return 1;
}
