/*
 * Fires probes with known values, 0 to 12 arguments, and writes to the file
 * named by argv[1] what a tracer should print for each: the same lines
 * bpftrace-args.sh's script prints from the probes' arguments. Pointers
 * and float bits are only known at run time, hence the file.
 */
#include <sys/sdt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* Read through volatile, so values arrive in registers, not as constants. */
static volatile int v_int = -1;
static volatile long long v_min = LLONG_MIN;
static volatile unsigned long long v_max = ULLONG_MAX;
static volatile unsigned char v_uchar = 255;
static volatile signed char v_schar = -128;
static volatile short v_short = -32768;
static volatile unsigned short v_ushort = 65535;
static volatile unsigned v_uint = UINT_MAX;
static volatile float v_float = 1.5f;
static volatile double v_double = -2.25;
int g_global = 424242;
static __thread long t_local = -77;

static FILE *out;
static char message[64];

static unsigned long long u(const void *p)
{
	return (unsigned long long)(uintptr_t)p;
}

NOINLINE static void fire_numbers(void)
{
	int i = v_int;
	long long mn = v_min;
	unsigned long long mx = v_max;
	unsigned char uc = v_uchar;
	signed char sc = v_schar;
	short sh = v_short;
	unsigned short us = v_ushort;
	unsigned ui = v_uint;

	STAP_PROBE(vals, a0);
	fprintf(out, "a0\n");
	STAP_PROBE1(vals, a1, i);
	fprintf(out, "a1 %d\n", i);
	STAP_PROBE2(vals, a2, mn, mx);
	fprintf(out, "a2 %lld %llu\n", mn, mx);
	STAP_PROBE3(vals, a3, uc, sc, sh);
	fprintf(out, "a3 %u %d %d\n", uc, sc, sh);
	STAP_PROBE4(vals, a4, us, ui, INT_MIN, 0);
	fprintf(out, "a4 %u %u %d %d\n", us, ui, INT_MIN, 0);
	STAP_PROBE5(vals, a5, g_global, t_local, -1, 255, (char)0);
	fprintf(out, "a5 %d %ld %d %d %d\n", g_global, t_local, -1, 255, 0);
	STAP_PROBE6(vals, a6, 1, -2, 3, -4, 5, -6);
	fprintf(out, "a6 1 -2 3 -4 5 -6\n");
	STAP_PROBE7(vals, a7, i, mn, mx, uc, sc, sh, us);
	fprintf(out, "a7 %d %lld %llu %u %d %d %u\n", i, mn, mx, uc, sc, sh,
		us);
	STAP_PROBE8(vals, a8, mx, mn, ui, i, us, sh, uc, sc);
	fprintf(out, "a8 %llu %lld %u %d %u %d %u %d\n", mx, mn, ui, i, us, sh,
		uc, sc);
}

NOINLINE static void fire_wide(const char *s, void *p)
{
	int i = v_int;
	long long mn = v_min;
	unsigned long long mx = v_max;
	float f = v_float;
	double d = v_double;
	uint32_t fbits;
	uint64_t dbits;

	memcpy(&fbits, &f, sizeof(fbits));
	memcpy(&dbits, &d, sizeof(dbits));
	STAP_PROBE9(vals, a9, 1, 2, 3, 4, 5, 6, 7, 8, i);
	fprintf(out, "a9 1 2 3 4 5 6 7 8 %d\n", i);
	STAP_PROBE10(vals, a10, mn, mx, mn, mx, mn, mx, mn, mx, mn, mx);
	fprintf(out, "a10 %lld %llu %lld %llu %lld %llu %lld %llu %lld %llu\n",
		mn, mx, mn, mx, mn, mx, mn, mx, mn, mx);
	STAP_PROBE11(vals, a11, i, -i, 2 * i, mn, mx, s, p, f, d, g_global,
		     t_local);
	fprintf(out, "a11 %d %d %d %lld %llu %llu %llu %u %llu %d %ld\n", i, -i,
		2 * i, mn, mx, u(s), u(p), (unsigned)fbits,
		(unsigned long long)dbits, g_global, t_local);
	STAP_PROBE12(vals, a12, s, i, mn, mx, 12, -12, f, d, p, s, g_global,
		     message);
	fprintf(out, "a12 %s %d %lld %llu 12 -12 %u %llu %llu %s %d %s\n", s, i,
		mn, mx, (unsigned)fbits, (unsigned long long)dbits, u(p), s,
		g_global, message);
	STAP_PROBE3(vals, strings, s, message, "in-place");
	fprintf(out, "strings %s %s %s\n", s, message, "in-place");
	STAP_PROBE2(vals, floats, f, d);
	fprintf(out, "floats %u %llu\n", (unsigned)fbits,
		(unsigned long long)dbits);
}

int main(int argc, char **argv)
{
	static char buf[32] = "from-a-buffer";
	int dummy;

	if (argc != 2 || !(out = fopen(argv[1], "w"))) {
		fprintf(stderr, "usage: values EXPECTED-FILE\n");
		return 2;
	}
	/* Touch the strings: BPF cannot fault their pages in. */
	strcpy(message, "message");
	fprintf(out, "# %s %s %s\n", buf, message, "in-place");
	fire_numbers();
	fire_wide(buf, &dummy);
	return fclose(out) != 0;
}
