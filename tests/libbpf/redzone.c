/* SPDX-License-Identifier: MIT */
/*
 * Live data in the red zone across a traced fast site, for
 * fast-redzone.sh. Two leaf functions keep KEEP words below %rsp (the
 * x86_64 red zone: a leaf needs no frame, so gcc and clang store its
 * locals there) while a probe fires:
 *  - rz:fast is <sys/sdt.h>'s fast site (built with SDTKIT_FAST_ATTACH),
 *    which steps %rsp over the red zone around its `nop; nop5';
 *  - rz:raw is the bare `nop; nop5' with nothing around it: the call the
 *    kernel puts on its 5-byte nop pushes into the red zone, so it shows
 *    that the check would see damage.
 * Each returns how many of its words changed across the probe.
 *
 *   redzone EXPECTED-FILE N
 *
 * prints "ready PID", waits for SIGUSR1 (the tracer is attached), runs
 * both N times, writes "NAME 2 SEED SEED+1" per hit to EXPECTED-FILE,
 * prints "fired FAST-DAMAGED RAW-DAMAGED" (words found changed, summed),
 * waits for a second SIGUSR1 and exits.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/sdt.h>

#define KEEP 14 /* 112 of the red zone's 128 bytes */

/* A bare `nop; nop5' with its note: the fast site without the step. */
#define RAW_SITE STAP_PROBE_ASM(rz, raw, STAP_PROBE_ASM_TEMPLATE(2))

static inline unsigned long word(unsigned long seed, int i)
{
	return seed * 0x9e3779b97f4a7c15ul + (unsigned long)i;
}

__attribute__((noinline)) int leaf_fast(unsigned long seed)
{
	volatile unsigned long keep[KEEP];
	int n = 0;

	for (int i = 0; i < KEEP; i++)
		keep[i] = word(seed, i);
	STAP_PROBE2(rz, fast, seed, seed + 1);
	for (int i = 0; i < KEEP; i++)
		n += keep[i] != word(seed, i);
	return n;
}

__attribute__((noinline)) int leaf_raw(unsigned long seed)
{
	volatile unsigned long keep[KEEP];
	int n = 0;

	for (int i = 0; i < KEEP; i++)
		keep[i] = word(seed, i);
	__asm__ __volatile__(RAW_SITE ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
			     :
			     : STAP_PROBE_ASM_OPERANDS(2, seed, seed + 1));
	for (int i = 0; i < KEEP; i++)
		n += keep[i] != word(seed, i);
	return n;
}

int main(int argc, char **argv)
{
	long fast = 0, raw = 0, n;
	sigset_t set;
	FILE *want;
	int sig;

	if (argc != 3) {
		fprintf(stderr, "usage: redzone EXPECTED-FILE N\n");
		return 2;
	}
	want = fopen(argv[1], "w");
	if (!want) {
		perror(argv[1]);
		return 1;
	}
	n = atol(argv[2]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	for (long i = 1; i <= n; i++) {
		fast += leaf_fast((unsigned long)i);
		raw += leaf_raw((unsigned long)i);
		fprintf(want, "fast 2 %ld %ld\nraw 2 %ld %ld\n", i, i + 1, i,
			i + 1);
	}
	if (fclose(want) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("fired %ld %ld\n", fast, raw);
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	return 0;
}
