/*
 * The benchmarks' one clock and median: monotonic time in microseconds,
 * and the median of a sample (sorted in place). Header-only: dlopen-floor.c
 * is built by its bench script alone, outside automake.
 */
#ifndef SDTKIT_BENCH_CLOCK_H
#define SDTKIT_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline double bench_median(double *t, size_t n)
{
	qsort(t, n, sizeof(*t), bench_cmp_double);
	return t[n / 2];
}

#endif
