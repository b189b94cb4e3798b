/* SPDX-License-Identifier: MIT */
/*
 * probeIsEnabled() as an rseq critical section, seen from outside: after a
 * call, the thread's rseq area points at a descriptor the kernel accepts
 * (version 0, the abort address outside the section and preceded by the
 * signature glibc registered); a thread asking without pause while
 * signals rain on it is restarted, never resumed inside the section (each
 * signal handler sees where the thread will go on), and never gets a
 * wrong answer; and threads asking while the main thread loads and
 * unloads the provider (each unload restarts them, loader.c) are never
 * hurt. `rseq ROUNDS' prints `section' first, or `marked' where the
 * library took the marked check (no rseq, glibc.pthread.rseq=0), whose
 * readers then go through the unloads alone; exit 0, or 1 on failure.
 * x86_64 only (the only machine with the section); elsewhere exit 77.
 */
#define _GNU_SOURCE
#include <stdio.h>

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/rseq.h>)
#define HAVE_SECTION 1
#endif
#endif

#ifndef HAVE_SECTION
int main(void)
{
	printf("no rseq section on this machine\n");
	return 77;
}
#else
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>
#include <ucontext.h>

#include "check.h"
#include "libstapsdt.h"

#define READERS 3

static struct rseq_cs cs; /* a copy of the library's descriptor */
static SDTProbe_t *probe;
static int done;
static unsigned long aborted, inside, signals, wrong;
/*
 * The section's first two instructions (cmp of rseq_cs, jne to the store)
 * run before it has made rseq_cs its own: a signal there, with rseq_cs
 * still another's or 0, is rightly not restarted, and nothing was read.
 */
static uintptr_t entered;

static struct rseq *rseq_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

/* Where the interrupted thread resumes: never inside the section. */
static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t ip =
		(uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];

	(void)sig, (void)si;
	__atomic_add_fetch(&signals, 1, __ATOMIC_RELAXED);
	if (ip == cs.abort_ip)
		__atomic_add_fetch(&aborted, 1, __ATOMIC_RELAXED);
	else if (ip - cs.start_ip < cs.post_commit_offset && ip >= entered)
		__atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
}

/* Asks until told to stop; an untraced probe is never enabled. */
static void *reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED))
		if ((probeIsEnabled)(probe) != 0)
			__atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* A copy of the descriptor the library's section left in this thread's
 * rseq area, checked as the kernel checks it; 0, or -1 with none there. */
static int take_descriptor(void)
{
	uint64_t addr;
	uint32_t sig;

	if (__rseq_size == 0 || (addr = rseq_area()->rseq_cs) == 0)
		return -1;
	memcpy(&cs, (void *)(uintptr_t)addr, sizeof(cs));
	memcpy(&sig, (void *)(uintptr_t)(cs.abort_ip - 4), sizeof(sig));
	CHECK(addr % 32 == 0);
	CHECK(cs.version == 0 && cs.flags == 0);
	CHECK(cs.post_commit_offset > 0 && cs.post_commit_offset < 256);
	CHECK(cs.abort_ip - cs.start_ip >= cs.post_commit_offset);
	CHECK(sig == RSEQ_SIG);
	/* cmpq %rcx, %fs:8(%rax) (5 bytes), then jne rel8 or rel32 */
	const unsigned char *c = (const unsigned char *)(uintptr_t)cs.start_ip;
	CHECK(c[0] == 0x64 && (c[5] == 0x75 || (c[5] == 0x0f && c[6] == 0x85)));
	entered = cs.start_ip + 5 + (c[5] == 0x75 ? 2 : 6);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	SDTProvider_t *p = providerInit("rseqtest");
	struct sigaction sa;
	pthread_t th[READERS];
	int section;

	probe = p ? providerAddProbe(p, "p", 2, int64, uint32) : NULL;
	if (!probe || providerLoad(p) != 0) {
		fprintf(stderr, "rseq: cannot load a probe\n");
		return 1;
	}
	CHECK((probeIsEnabled)(probe) == 0);
	section = take_descriptor() == 0;
	/* Where glibc registered rseq, the library must have taken it. */
	CHECK(section || __rseq_size == 0);
	printf("%s\n", section ? "section" : "marked");

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	for (int i = 0; i < READERS; i++)
		CHECK(pthread_create(&th[i], NULL, reader, NULL) == 0);
	/* Signals, until some landed inside a section (they restart it). */
	for (long n = 0;
	     section && n < 20000000 &&
	     (n < 20000 || __atomic_load_n(&aborted, __ATOMIC_RELAXED) < 10);
	     n++)
		pthread_kill(th[n % READERS], SIGUSR1);
	/* Unloads: the readers' sections restart, or they read NULL. */
	for (int i = 0; i < rounds; i++)
		CHECK(providerUnload(p) == 0 && providerLoad(p) == 0);
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < READERS; i++)
		pthread_join(th[i], NULL);
	CHECK(!section || aborted > 0);
	CHECK(inside == 0);
	CHECK(wrong == 0);
	providerDestroy(p);
	printf("%lu signals, %lu restarted a section, %d unloads under %d "
	       "readers\n",
	       signals, aborted, rounds, READERS);
	return check_status("rseq");
}
#endif
