/* SPDX-License-Identifier: MIT */
/*
 * The semaphore-guarded probe of static.sh, in a unit of its own because
 * _SDT_HAS_SEMAPHORES gives every probe of a unit a semaphore. The
 * semaphore is defined as dtrace -G would: an unsigned short in .probes,
 * which libbpf hands to the kernel as the uprobe's ref_ctr_offset.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short lbsem_guarded_semaphore __attribute__((section(".probes")));

unsigned sema_value(void);
int fire_guarded(long a, unsigned char b);

unsigned sema_value(void)
{
	return *(volatile unsigned short *)&lbsem_guarded_semaphore;
}

/* Fires only while a tracer holds the semaphore up; says whether it did. */
int fire_guarded(long a, unsigned char b)
{
	if (!sema_value())
		return 0;
	STAP_PROBE2(lbsem, guarded, a, b);
	return 1;
}
