/* SPDX-License-Identifier: MIT */
/*
 * fork() while other threads are busy in the library: firing, and loading,
 * extending and unloading providers in a memfd and in a file. Each child,
 * forked at whatever moment, fires the inherited probes, extends them with
 * a probe of its own, loads and unloads a provider of its own and exits
 * through exit() (destructors run): it must neither hang (on a lock held
 * by a thread that does not exist in it) nor delete or unmap anything of
 * the parent's. Then a parent that daemonizes (forks and
 * exits) must leave the child's object file in place.
 * `fork-stress FORKS'; built with ASan and TSan by stress.sh.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libstapsdt.h"

#define FIRERS 3

/*
 * Cyclers pause between cycles. Under TSan much longer: there, fork()
 * after many dlopen/dlclose cycles was seen to fail with ENOMEM (an
 * accounted anonymous mapping of the runtime's grows past RAM size; not
 * so without TSan, where the mapping count stays flat).
 */
#if defined(__SANITIZE_THREAD__)
#define CYCLE_PAUSE_US 5000
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CYCLE_PAUSE_US 5000
#endif
#endif
#ifndef CYCLE_PAUSE_US
#define CYCLE_PAUSE_US 100
#endif

static SDTProvider_t *mem, *file;
static SDTProbe_t *mem_probe, *file_probe;
static int done;

static void *firer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_RELAXED)) {
		probeFire(mem_probe, 1, 2);
		probeFire(file_probe, 3);
		(probeIsEnabled)(mem_probe);
		sched_yield(); /* two cores here: let the forks run too */
	}
	return NULL;
}

/* Load, extend by a probe (the first cycles), unload, in a loop. */
static void *cycler(void *arg)
{
	SDTProvider_t *p = arg;
	char name[16];

	for (int i = 0; !__atomic_load_n(&done, __ATOMIC_RELAXED); i++) {
		snprintf(name, sizeof(name), "x%d", i);
		if (providerLoad(p) != 0 ||
		    (i < 64 && (!providerAddProbe(p, name, 1, int64) ||
				providerExtend(p) != 0)) ||
		    providerUnload(p) != 0) {
			fprintf(stderr, "fork-stress: cycle: %s\n", p->error);
			exit(1);
		}
		usleep(CYCLE_PAUSE_US);
	}
	return NULL;
}

static SDTProvider_t *provider(const char *name, int memfd, SDTProbe_t **pr)
{
	SDTProvider_t *p = providerInit(name);

	providerUseMemfd(p, memfd ? memfd_enabled : memfd_disabled);
	*pr = providerAddProbe(p, "hit", 2, int32, int64);
	return p;
}

/* What a child does: all of it must work, then exit() must return. */
static void child(int n)
{
	char name[32];
	SDTProbe_t *probe;
	SDTProvider_t *own;

	/*
	 * A hang shows up as SIGALRM in the parent: at 2 minutes, which no
	 * child takes, however busy the machine (ASan children took over 20
	 * seconds on a loaded one), and within stress.sh's timeout of 300.
	 */
	alarm(120);
	probeFire(mem_probe, 1, 2);
	probeFire(file_probe, 3);
	/* Objects of its own in the inherited providers (loads if need be). */
	if (!providerAddProbe(mem, "in-child", 0) || providerExtend(mem) != 0 ||
	    !providerAddProbe(file, "in-child", 0) ||
	    providerExtend(file) != 0) {
		fprintf(stderr, "fork-stress: child extend: %s / %s\n",
			mem->error ? mem->error : "-",
			file->error ? file->error : "-");
		exit(6);
	}
	snprintf(name, sizeof(name), "child-%d", n);
	own = provider(name, n % 2, &probe);
	if (providerLoad(own) != 0) {
		fprintf(stderr, "fork-stress: child load: %s\n", own->error);
		exit(3);
	}
	probeFire(probe, 4, 5);
	if (providerUnload(own) != 0)
		exit(4);
	providerDestroy(own);
	/* Gives back the inherited ones: only in this process. */
	if (n % 3 == 0) {
		providerDestroy(file);
		providerDestroy(mem);
	}
	exit(0);
}

static int wait_ok(pid_t pid, const char *what)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		fprintf(stderr, "fork-stress: %s: %s %d\n", what,
			WIFSIGNALED(st) ? "killed by signal" : "exit status",
			WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

/* Forks while the threads run; 0 when every child exited cleanly. */
static int fork_while_busy(int forks)
{
	pthread_t th[FIRERS + 2];
	int bad = 0;

	for (int i = 0; i < FIRERS; i++)
		pthread_create(&th[i], NULL, firer, NULL);
	pthread_create(&th[FIRERS], NULL, cycler, mem);
	pthread_create(&th[FIRERS + 1], NULL, cycler, file);
	for (int i = 0; i < forks && !bad; i++) {
		pid_t pid = fork();

		if (pid == 0)
			child(i);
		if (pid < 0)
			perror("fork-stress: fork");
		bad = pid < 0 || wait_ok(pid, "busy child") < 0;
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < FIRERS + 2; i++)
		pthread_join(th[i], NULL);
	return bad ? -1 : 0;
}

/* The parent's loaded file survives children that exit or unload. */
static int children_leave_parent_alone(void)
{
	struct stat st;

	if (providerLoad(file) != 0) {
		fprintf(stderr, "fork-stress: load: %s\n", file->error);
		return -1;
	}
	for (int i = 0; i < 6; i++) {
		pid_t pid = fork();

		if (pid == 0)
			child(i * 3); /* destroys the inherited providers */
		if (wait_ok(pid, "child of a loaded parent") < 0)
			return -1;
	}
	if (stat(file->_filename, &st) != 0) {
		fprintf(stderr, "fork-stress: a child removed %s\n",
			file->_filename);
		return -1;
	}
	probeFire(file_probe, 1);
	if (providerUnload(file) != 0) {
		fprintf(stderr, "fork-stress: unload: %s\n", file->error);
		return -1;
	}
	return 0;
}

/*
 * Daemonizing: a process loads a file-placed provider, forks and exits.
 * The grandchild (ours again, as subreaper) must still find its file.
 */
static int daemonize_keeps_file(void)
{
	pid_t mine = getpid(), mid = fork();

	if (mid == 0) {
		SDTProbe_t *pr;
		SDTProvider_t *p = provider("daemon", 0, &pr);
		int ok;

		if (providerLoad(p) != 0)
			exit(5);
		if (fork() != 0)
			exit(0); /* the parent leaves, destructors run */
		while (getppid() != mine)
			usleep(1000);
		usleep(20000);
		probeFire(pr, 1, 2);
		ok = access(p->_filename, R_OK) == 0;
		/* Left for us by design (its placer is gone): tidy up. */
		unlink(p->_filename);
		*strrchr(p->_filename, '/') = '\0';
		rmdir(p->_filename);
		_exit(ok ? 0 : 6);
	}
	int st;

	if (wait_ok(mid, "daemonizing parent") < 0)
		return -1;
	if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "fork-stress: the daemon lost its object file "
				"when its parent exited\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int forks = argc > 1 ? atoi(argv[1]) : 50;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	mem = provider("fork-mem", 1, &mem_probe);
	file = provider("fork-file", 0, &file_probe);
	if (fork_while_busy(forks) < 0 || children_leave_parent_alone() < 0)
		return 1;
	if (daemonize_keeps_file() < 0)
		return 1;
	providerDestroy(mem);
	providerDestroy(file);
	printf("fork-stress: %d forks while busy, children and a daemon "
	       "behaved\n",
	       forks);
	return 0;
}
