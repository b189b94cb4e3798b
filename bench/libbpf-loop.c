/* SPDX-License-Identifier: MIT */
/*
 * The traced side of bench/libbpf-traced.sh: fires one probe in a loop
 * while a libbpf program is attached and prints what each hit costs.
 *
 *   libbpf-loop static N    a <sys/sdt.h> probe, lbbench:hit
 *   libbpf-loop dynamic N   a libstapsdt probe, lbbench:hit, via probeFire()
 *
 * Prints "ready PID OBJECT" (OBJECT: the file holding the probe), waits
 * for SIGUSR1 (the tracer is attached), warms up (the kernel optimizes a
 * uprobe on a 5-byte nop after its first hit), then prints "traced NS"
 * (the best of 5 runs of N fires, ns per fire), the fires it made and,
 * for a libstapsdt probe, the stub's first bytes as the tracer left them.
 * Time is the thread's own CPU time, user and kernel (the trap or call,
 * the uprobe handler and the BPF program all run on its account): on a
 * busy machine, wall time would add the waits for a CPU.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/sdt.h>

#include "libstapsdt.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static SDTProbe_t *probe;

static void __attribute__((noinline)) fire_static(long i)
{
	DTRACE_PROBE2(lbbench, hit, i, 7);
}

static void __attribute__((noinline)) fire_dynamic(long i)
{
	probeFire(probe, (uint64_t)i, 7);
}

int main(int argc, char **argv)
{
	void (*fire)(long) = fire_static;
	SDTProvider_t *p = NULL;
	char exe[4096];
	double best = 1e30;
	sigset_t set;
	long n, fired = 0;
	ssize_t len;
	int sig;

	if (argc != 3 ||
	    (strcmp(argv[1], "static") && strcmp(argv[1], "dynamic"))) {
		fprintf(stderr, "usage: libbpf-loop static|dynamic N\n");
		return 2;
	}
	n = atol(argv[2]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (strcmp(argv[1], "dynamic") == 0) {
		p = providerInit("lbbench");
		probe = p ? providerAddProbe(p, "hit", 2, int64, uint32) : NULL;
		if (!probe || providerLoad(p) != 0) {
			fprintf(stderr, "libbpf-loop: %s\n",
				p ? p->error : "no memory");
			return 1;
		}
		fire = fire_dynamic;
		printf("ready %d %s\n", (int)getpid(), p->_filename);
	} else {
		len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (len < 0)
			return 1;
		exe[len] = '\0';
		printf("ready %d %s\n", (int)getpid(), exe);
	}
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	for (long i = 0; i < 1000; i++, fired++)
		fire(i);
	for (int rep = 0; rep < 5; rep++) {
		double s = now_ns(), e;

		for (long i = 0; i < n; i++)
			fire(i);
		e = (now_ns() - s) / (double)n;
		fired += n;
		if (e < best)
			best = e;
	}
	printf("traced %.1f ns\nfired %ld\n", best, fired);
	if (probe) {
		/* How the kernel left the stub: cc = int3, e8 = a call. */
		const unsigned char *stub = probe->_fire;

		printf("stub");
		for (int i = 0; i < 6; i++)
			printf(" %02x", stub[i]);
		printf("\n");
	}
	providerDestroy(p);
	return 0;
}
