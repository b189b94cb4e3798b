/* SPDX-License-Identifier: MIT */
/*
 * The floor under providerLoad(): what the C library alone takes to
 * dlopen() and dlclose() the smallest shared object there is, placed the
 * way libstapsdt places its own (in a memfd, opened through
 * /proc/self/fd/N). No provider can load faster than this, so a load
 * target below it cannot be met by any library that dlopens its probes.
 * `dlopen-floor EMPTY.so' prints "dlopen_floor_us VALUE us".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#define RUNS 401

/* The object's bytes in a new memfd, as a loader would place them. */
static int object_memfd(const char *path)
{
	static char buf[1 << 16];
	int in = open(path, O_RDONLY | O_CLOEXEC);
	int fd = memfd_create("floor", MFD_CLOEXEC);
	ssize_t n;

	if (in < 0 || fd < 0)
		return -1;
	n = read(in, buf, sizeof(buf));
	close(in);
	if (n <= 0 || write(fd, buf, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	static double t[RUNS];
	char path[64];

	if (argc != 2) {
		fprintf(stderr, "usage: dlopen-floor EMPTY.so\n");
		return 2;
	}
	for (int r = 0; r < RUNS; r++) {
		double s = bench_now_us();
		int fd = object_memfd(argv[1]);
		void *h;

		if (fd < 0) {
			perror("dlopen-floor: memfd");
			return 1;
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			fprintf(stderr, "dlopen-floor: %s\n", dlerror());
			return 1;
		}
		t[r] = bench_now_us() - s;
		dlclose(h);
		close(fd);
	}
	qsort(t, RUNS, sizeof(t[0]), bench_cmp_double);
	printf("dlopen_floor_us %.2f us\n", t[RUNS / 2]);
	return 0;
}
