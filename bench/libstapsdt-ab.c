/* SPDX-License-Identifier: MIT */
/*
 * probeIsEnabled() and probeFire(), the functions, of two libstapsdt
 * builds in one process: `libstapsdt-ab OURS.so PUBLIC.so [WINDOWS]'.
 * Both are dlopen()ed (RTLD_LOCAL) and called through the pointers
 * dlsym() gives, as bindings call them (ctypes, cgo, FFI), on a loaded,
 * untraced probe of each. WINDOWS (2000) windows of 100,000 calls each
 * alternate between the two (which goes first alternates too), so both see
 * the same machine, frequency and neighbours, and a window the scheduler
 * cut into is one of many; prints the median ns per call of each, "NAME
 * OURS PUBLIC" lines, then "floor NS": the same loop calling a function
 * that only returns, through a pointer the same way, in windows between
 * theirs; no check made by a call can cost less. bench/libstapsdt-bench.sh
 * pins it to one CPU.
 *
 * Both libraries export the public API with its layouts, which is all
 * this program uses: it is built without either header.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

typedef struct {
	void *(*init)(const char *);
	void *(*add)(void *, const char *, int, ...);
	int (*load)(void *);
	void (*destroy)(void *);
	int (*enabled)(void *);
	void (*fire)(void *, ...);
	void *provider, *probe;
} lib_t;

static int lib_open(lib_t *l, const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "libstapsdt-ab: %s\n", dlerror());
		return -1;
	}
	*(void **)&l->init = dlsym(h, "providerInit");
	*(void **)&l->add = dlsym(h, "providerAddProbe");
	*(void **)&l->load = dlsym(h, "providerLoad");
	*(void **)&l->destroy = dlsym(h, "providerDestroy");
	*(void **)&l->enabled = dlsym(h, "probeIsEnabled");
	*(void **)&l->fire = dlsym(h, "probeFire");
	if (!l->init || !l->add || !l->load || !l->destroy || !l->enabled ||
	    !l->fire) {
		fprintf(stderr, "libstapsdt-ab: %s: API missing\n", path);
		return -1;
	}
	l->provider = l->init("abprov");
	/* 2: int64, 4: uint32 (ArgType_t) */
	l->probe = l->provider ? l->add(l->provider, "ab", 2, -8, 4) : NULL;
	if (!l->probe || l->load(l->provider) != 0) {
		fprintf(stderr, "libstapsdt-ab: %s: cannot load a probe\n",
			path);
		return -1;
	}
	return 0;
}

#define CALLS 100000L

static volatile int sink;

/* The floor: a call that does nothing, as the loop makes it. */
__attribute__((noinline)) static int nothing(void *probe)
{
	__asm__ __volatile__("" : : "r"(probe));
	return 0;
}

static int (*volatile nothing_ptr)(void *) = nothing;

/*
 * ns per call of L's probeIsEnabled (FIRE 0) or probeFire (1); with L
 * NULL, of nothing().
 */
static double window(const lib_t *l, int fire)
{
	int (*enabled)(void *) = l ? l->enabled : nothing_ptr;
	void (*fn)(void *, ...) = l ? l->fire : NULL;
	void *probe = l ? l->probe : NULL;
	int on = 0;
	double s = bench_now_us();

	if (fire)
		for (long i = 0; i < CALLS; i++)
			fn(probe, (uint64_t)i, (uint64_t)7);
	else
		for (long i = 0; i < CALLS; i++)
			if (enabled(probe))
				on++;
	sink = on;
	return (bench_now_us() - s) * 1e3 / CALLS;
}

static void compare(const char *name, lib_t *libs, int fire, int windows)
{
	double *t[3] = { calloc((size_t)windows, sizeof(double)),
			 calloc((size_t)windows, sizeof(double)),
			 calloc((size_t)windows, sizeof(double)) };

	if (!t[0] || !t[1] || !t[2]) {
		fprintf(stderr, "libstapsdt-ab: out of memory\n");
		exit(1);
	}
	window(&libs[0], fire), window(&libs[1], fire); /* warm up */
	for (int w = 0; w < windows; w++) {
		for (int k = 0; k < 2; k++) {
			int i = (w + k) & 1;

			t[i][w] = window(&libs[i], fire);
		}
		if (!fire)
			t[2][w] = window(NULL, 0);
	}
	printf("%s %.3f %.3f\n", name, bench_median(t[0], (size_t)windows),
	       bench_median(t[1], (size_t)windows));
	if (!fire)
		printf("floor %.3f\n", bench_median(t[2], (size_t)windows));
	for (int k = 0; k < 3; k++)
		free(t[k]);
}

int main(int argc, char **argv)
{
	lib_t libs[2];
	int windows = argc > 3 ? atoi(argv[3]) : 2000;

	if (argc < 3 || windows < 1) {
		fprintf(stderr,
			"usage: libstapsdt-ab OURS.so PUBLIC.so [WINDOWS]\n");
		return 2;
	}
	if (lib_open(&libs[0], argv[1]) < 0 || lib_open(&libs[1], argv[2]) < 0)
		return 1;
	compare("enabled_call", libs, 0, windows);
	compare("fire_call", libs, 1, windows);
	libs[0].destroy(libs[0].provider);
	libs[1].destroy(libs[1].provider);
	return 0;
}
