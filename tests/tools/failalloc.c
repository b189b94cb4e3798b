/* SPDX-License-Identifier: MIT */
/*
 * A hook that makes one allocation fail, for any program, in a normal
 * build: LD_PRELOAD this and set SDTKIT_FAIL_ALLOC=N, and the Nth call to
 * malloc, calloc or realloc (counted from when the program's own code
 * may run) returns NULL with ENOMEM; every other call succeeds. Tests run
 * a program once per N and ask that each run gives the whole answer or
 * an error, never a shorter answer. SDTKIT_FAIL_ALLOC_COUNT=FILE writes
 * the number of calls made at exit, so a test knows how many N there are.
 * glibc lets a program replace malloc; its own calls come here too.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);

static unsigned long calls, fail_at;
static int armed;

static int fail_now(void)
{
	if (!armed)
		return 0;
	if (++calls != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t size)
{
	return fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	return fail_now() ? NULL : __libc_realloc(p, size);
}

static void report(void)
{
	const char *path = getenv("SDTKIT_FAIL_ALLOC_COUNT");
	FILE *f;

	armed = 0;
	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%lu\n", calls);
		fclose(f);
	}
}

__attribute__((constructor)) static void arm(void)
{
	const char *n = getenv("SDTKIT_FAIL_ALLOC");

	fail_at = n ? strtoul(n, NULL, 10) : 0;
	atexit(report);
	armed = 1;
}
