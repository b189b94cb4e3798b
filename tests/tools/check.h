/* SPDX-License-Identifier: MIT */
/*
 * The C tests' one assertion helper. A failed check prints where it is,
 * what it tested and, for CHECKF, why, then counts; the test goes on, so
 * one run shows every failure. check_status() turns the count into the
 * automake exit status at the end of main().
 *
 *   CHECK(cond);
 *   CHECKF(cond, "%s: %d probes", name, n);
 *   CHECK_STR(got, want);   NULL in GOT is a failure, not a crash
 */
#ifndef SDT_TESTS_CHECK_H
#define SDT_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

static inline void check_report(const char *file, int line, const char *what)
{
	check_failures++;
	fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

static inline void check_reportf(const char *file, int line, const char *what,
				 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline void check_reportf(const char *file, int line, const char *what,
				 const char *fmt, ...)
{
	va_list ap;

	check_failures++;
	fprintf(stderr, "%s:%d: check failed: %s: ", file, line, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static inline void check_str(const char *file, int line, const char *what,
			     const char *got, const char *want)
{
	if (!got || strcmp(got, want))
		check_reportf(file, line, what, "`%s', expected `%s'",
			      got ? got : "(null)", want);
}

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			check_report(__FILE__, __LINE__, #cond);               \
	} while (0)

#define CHECKF(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond))                                                   \
			check_reportf(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, #got, got, want)

/* 0 when every check passed, else 1; says which on the way. */
static inline int check_status(const char *test)
{
	if (check_failures) {
		fprintf(stderr, "%s: %d checks failed\n", test, check_failures);
		return 1;
	}
	printf("%s: all checks passed\n", test);
	return 0;
}

#endif
