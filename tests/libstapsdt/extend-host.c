/* SPDX-License-Identifier: MIT */
/*
 * The traced process of the providerExtend() tests: provider `jit' with
 * probe a(int64), whose argument counts its fires from 1, and probe end(),
 * which tells a bpftrace script to exit. It loads them, prints
 * "ready PID OBJECT", waits until a tracer counts a's semaphore (and, with
 * --wait-end, end's) and for a SIGUSR2 (the tracer says it is attached),
 * then grows the provider while firing a:
 *
 *   extend-host [--file] timeline AT MS
 *	fires a every MS ms; at the AT-th fire adds b(uint64_t tick) with
 *	providerExtend() and prints "extended"; from then on also fires b
 *	with the same count. Stops after a SIGUSR1 (once extended). With
 *	--reload, adds b the old way instead: unload, then load.
 *   extend-host [--file] additions N
 *	N times: fires a twice, adds probe pI(int64) (I = 1..N), extends,
 *	fires pI. Then fires a once more.
 *
 * Both print "fires TOTAL" (how many times a fired) once done, then, while
 * end is traced, fire end until its tracer is gone. With --linger, they
 * then print "lingering" and fire every pI each 50 ms until a SIGUSR1.
 * Then they exit.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libstapsdt.h"

#define MAX_ADDED 20000

static SDTProvider_t *prov;
static SDTProbe_t *a, *end;
static uint64_t fires;
static volatile sig_atomic_t stop, go;
static int reload;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		stop = 1;
	else
		go = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "extend-host: %s: %s\n", what,
		prov->error ? prov->error : "failed");
	exit(1);
}

static SDTProbe_t *add(const char *name, int argc)
{
	SDTProbe_t *p = providerAddProbe(prov, name, argc, int64);

	if (!p)
		die(name);
	return p;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Until PROBE's semaphore is counted, for at most 30 s. */
static void wait_traced(SDTProbe_t *probe)
{
	for (int i = 0; i < 3000 && !probeIsEnabled(probe); i++)
		sleep_ms(10);
	if (!probeIsEnabled(probe)) {
		fprintf(stderr, "extend-host: %s is not traced after 30 s\n",
			probe->name);
		exit(1);
	}
}

static void fire_a(void)
{
	probeFire(a, ++fires);
}

static void timeline(int at, long ms)
{
	SDTProbe_t *b = NULL;

	while (!stop || !b) {
		fire_a();
		if (fires == (uint64_t)at) {
			b = add("b", 1);
			/* Its type goes into the new object too. */
			if (probeSetArgInfo(b, 0, "uint64_t", "tick") < 0)
				die("b's type");
			if (reload && providerUnload(prov) < 0)
				die("unload");
			if ((reload ? providerLoad(prov)
				    : providerExtend(prov)) < 0)
				die("extend");
			printf("extended\n");
		}
		if (b)
			probeFire(b, fires);
		sleep_ms(ms);
	}
}

static SDTProbe_t *added[MAX_ADDED];
static int nadded;

static void additions(int n)
{
	char name[16];

	for (int i = 0; i < n; i++) {
		fire_a();
		fire_a();
		snprintf(name, sizeof(name), "p%d", i + 1);
		added[i] = add(name, 1);
		if (providerExtend(prov) < 0)
			die("extend");
		probeFire(added[i], (uint64_t)i + 1);
		nadded++;
	}
	fire_a();
}

static void linger(void)
{
	printf("lingering\n");
	while (!stop) {
		for (int i = 0; i < nadded; i++)
			probeFire(added[i], (uint64_t)i + 1);
		sleep_ms(50);
	}
}

int main(int argc, char **argv)
{
	int argi = 1, file = 0, wait_end = 0, lingers = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	for (; argi < argc && strncmp(argv[argi], "--", 2) == 0; argi++) {
		file |= strcmp(argv[argi], "--file") == 0;
		wait_end |= strcmp(argv[argi], "--wait-end") == 0;
		lingers |= strcmp(argv[argi], "--linger") == 0;
		reload |= strcmp(argv[argi], "--reload") == 0;
	}
	if (argc - argi != 3 &&
	    !(argc - argi == 2 && strcmp(argv[argi], "additions") == 0)) {
		fprintf(stderr,
			"usage: extend-host [--file] [--wait-end] "
			"[--linger] [--reload] timeline AT MS | additions N\n");
		return 2;
	}
	prov = providerInit("jit");
	if (file)
		providerUseMemfd(prov, memfd_disabled);
	a = add("a", 1);
	end = add("end", 0);
	if (providerLoad(prov) < 0)
		die("load");
	printf("ready %d %s\n", (int)getpid(), prov->_filename);
	wait_traced(a);
	if (wait_end)
		wait_traced(end);
	/*
	 * A tracer counts the semaphore when it creates the uprobe, a moment
	 * before its program is attached: the test says when it is.
	 */
	for (int i = 0; i < 3000 && !go; i++)
		sleep_ms(10);
	if (!go) {
		fprintf(stderr, "extend-host: no SIGUSR2 after 30 s\n");
		return 1;
	}
	if (strcmp(argv[argi], "timeline") == 0)
		timeline(atoi(argv[argi + 1]), atol(argv[argi + 2]));
	else if (atoi(argv[argi + 1]) <= MAX_ADDED)
		additions(atoi(argv[argi + 1]));
	else
		return 2;
	printf("fires %llu\n", (unsigned long long)fires);
	for (int i = 0; i < 1000 && probeIsEnabled(end); i++) {
		probeFire(end);
		sleep_ms(10);
	}
	if (lingers)
		linger();
	providerDestroy(prov);
	return 0;
}
