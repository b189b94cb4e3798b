/* SPDX-License-Identifier: MIT */
/*
 * The traced process of the sdt-list -p test: a libstapsdt provider
 * `sdtlist' (loaded through a memfd, the library's default) with one probe
 * `tick' taking an int, fired every 10 ms. It prints "ready PID SEMA" (the
 * semaphore's address) once the provider is loaded and runs until killed or for
 * 300 seconds, so a test can point sdt-list -p and bpftrace -p at it
 * (bpftrace 0.27 was seen to take most of a minute to attach on a busy
 * machine).
 */
#include <stdio.h>
#include <unistd.h>

#include "libstapsdt.h"

int main(void)
{
	SDTProvider_t *prov = providerInit("sdtlist");
	SDTProbe_t *tick;

	if (!prov) {
		fprintf(stderr, "memfd-host: providerInit failed\n");
		return 1;
	}
	tick = providerAddProbe(prov, "tick", 1, int32);
	if (!tick || providerLoad(prov) != 0) {
		fprintf(stderr, "memfd-host: %s\n", prov->error);
		return 1;
	}
	printf("ready %d %p\n", (int)getpid(),
	       (const void *)probeSemaphore(tick));
	fflush(stdout);
	for (int i = 0; i < 30000; i++) {
		probeFire(tick, i);
		usleep(10000);
	}
	providerUnload(prov);
	providerDestroy(prov);
	return 0;
}
