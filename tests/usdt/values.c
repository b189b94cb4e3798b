/* SPDX-License-Identifier: MIT */
/*
 * readers.sh's program: <usdt.h> probes (provider usdtv) of every kind of
 * argument, from 0 to 12 arguments. Usage: values WANT-FILE [now]
 *
 * Writes, for each hit, "NAME ARGC VALUES..." to WANT-FILE: each value as
 * a tracer reads it once widened to 64 bits by the size and sign of its
 * spec, printed as a signed 64-bit decimal (the form usdt-trace prints).
 * With "now" it fires every probe once and exits; otherwise it prints
 * "ready PID", fires at the first SIGUSR1, prints "fired 0 0" and exits at
 * the second (the protocol of tests/libbpf/lib.sh's trace_and_compare).
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <usdt.h>

static FILE *want_file;

static void want(const char *name, int n, ...)
{
	va_list ap;

	va_start(ap, n);
	fprintf(want_file, "%s %d", name, n);
	for (int i = 0; i < n; i++)
		fprintf(want_file, " %lld", va_arg(ap, long long));
	fprintf(want_file, "\n");
	va_end(ap);
}

enum color { DARK = -3, LIGHT = 7 };
struct three {
	unsigned char a, b, c;
};
struct one_int {
	int x;
};
struct pair {
	long long x, y;
};
struct large {
	long long x, y, z;
};
struct fields {
	int s : 3;
	unsigned u : 5;
};

int global_counter = 4242;
/* Values the compiler cannot fold into the probe's operands. */
static volatile long long vol_ll = LLONG_MIN;
static volatile unsigned long long vol_ull = ULLONG_MAX;

/*
 * Struct values pass their first bytes, unsigned (o.x = -5 reads as
 * 4294967291). noinline: they arrive in registers and memory as passed.
 */
static __attribute__((noinline)) void
fire_records(struct three t, struct one_int o, struct pair p, struct large l)
{
	USDT(usdtv, records, t, o, p, l);
	want("records", 4, (long long)(t.a | t.b << 8 | t.c << 16),
	     (long long)(unsigned)o.x, p.x, l.x);
}

static void fire_all(void)
{
	static const char text[] = "usdt text";
	struct fields f = { -3, 21 };
	float fl = 1.5f;
	double db = -2.25;
	uint32_t fbits;
	uint64_t dbits;
	int local = -77;

	memcpy(&fbits, &fl, sizeof(fbits));
	memcpy(&dbits, &db, sizeof(dbits));

	USDT(usdtv, none);
	want("none", 0);

	USDT(usdtv, mins, (signed char)-128, (short)-32768, INT_MIN, vol_ll);
	want("mins", 4, -128LL, -32768LL, (long long)INT_MIN, LLONG_MIN);

	USDT(usdtv, maxes, (unsigned char)255, (unsigned short)65535, UINT_MAX,
	     vol_ull);
	want("maxes", 4, 255LL, 65535LL, (long long)UINT_MAX, -1LL);

	USDT(usdtv, consts, 1, -1, 0x7fffffff, 5000000000LL, 'A', true);
	want("consts", 6, 1LL, -1LL, 0x7fffffffLL, 5000000000LL, 65LL, 1LL);

	USDT(usdtv, kinds, DARK, LIGHT, f.s, f.u, global_counter, local);
	want("kinds", 6, -3LL, 7LL, -3LL, 21LL, 4242LL, -77LL);

	USDT(usdtv, pointers, text, &global_counter, &local, fire_records);
	want("pointers", 4, (long long)(uintptr_t)text,
	     (long long)(uintptr_t)&global_counter,
	     (long long)(uintptr_t)&local, (long long)(uintptr_t)fire_records);

	USDT(usdtv, floats, fl, db);
	want("floats", 2, (long long)fbits, (long long)dbits);

	USDT(usdtv, twelve, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);
	want("twelve", 12, 1LL, -2LL, 3LL, -4LL, 5LL, -6LL, 7LL, -8LL, 9LL,
	     -10LL, 11LL, -12LL);

	/* Fired whether or not it is traced; says whether it was. */
	int active = USDT_IS_ACTIVE(usdtv, guarded);
	USDT_WITH_SEMA(usdtv, guarded, local, active);
	want("guarded", 2, -77LL, (long long)active);

	struct three t = { 1, 2, 3 };
	struct one_int o = { -5 };
	struct pair p = { 0x1122334455667788LL, 9 };
	struct large l = { -6, 7, 8 };
	fire_records(t, o, p, l);
}

int main(int argc, char **argv)
{
	sigset_t set;
	int sig;

	if (argc < 2) {
		fprintf(stderr, "usage: values WANT-FILE [now]\n");
		return 2;
	}
	want_file = fopen(argv[1], "w");
	if (!want_file) {
		perror(argv[1]);
		return 1;
	}
	if (argc > 2) {
		fire_all();
		return fclose(want_file) != 0;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	fire_all();
	if (fclose(want_file) != 0)
		return 1;
	printf("fired 0 0\n");
	fflush(stdout);
	return sigwait(&set, &sig) != 0;
}
