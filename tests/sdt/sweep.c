/*
 * What real C code passes to <sys/sdt.h> probes (glibc's LIBC_PROBE,
 * QEMU's and PostgreSQL's dtrace -h headers, SystemTap's own sdt tests),
 * in one program valid from C89 to C2x: bit-field members, const and
 * volatile objects, _Bool, enums with negative values, arrays and string
 * literals passed directly, function names, arguments with side effects
 * (each must be evaluated exactly once), macros that expand to a
 * parenthesized comma expression, one function with many probes, and a
 * semaphore defined in the same program (_SDT_HAS_SEMAPHORES).
 *
 * Run with a file name, it fires every probe once and writes to the file
 * what a tracer must print for it: "NAME v1 v2 ...", integers in decimal
 * (signed where the argument is signed), pointers as unsigned decimal.
 * tests/sdt/sweep.sh compares that with bpftrace (first six arguments)
 * and gdb (all of them).
 */
#include <sys/sdt.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define HAVE_C99 1
typedef _Bool boolean;
#else
#define HAVE_C99 0
typedef unsigned char boolean;
#endif

#define NOINLINE __attribute__((noinline))

struct flags {
	unsigned small : 3;
	int neg : 5;
	__extension__ unsigned long wide : 31;
	__extension__ boolean on : 1;
	__extension__ unsigned char nibble : 4;
#if HAVE_C99
	unsigned long long huge : 40;
	long long negative_huge : 36;
#endif
};
enum level { LOW = -2, MID = 0, HIGH = 3 };

static const int c_int = -11;
static volatile long v_long = -123456789L;
static const volatile unsigned short cv_ushort = 65535;
static char buffer[16] = "buffer";
static FILE *out;
static int evaluations;

/* A macro that expands to a parenthesized comma expression. */
#define LAST_OF(a, b) ((void)(a), (b))
#define WRAPPED ((void)evaluations, 77)

/* sweep-sema.c: a probe behind a semaphore defined in this program. */
int fire_gated(int n);

static unsigned long u(const void *p)
{
	return (unsigned long)p;
}

static int bump(int by)
{
	evaluations++;
	return by;
}

static int handler(int v)
{
	return v + 1;
}

NOINLINE static void fire_members(const struct flags *f)
{
	struct flags g = *f;

	STAP_PROBE5(sweep, bitfields, f->small, f->neg, f->wide, f->on,
		    f->nibble);
	fprintf(out, "bitfields %u %d %lu %d %u\n", f->small, f->neg,
		(unsigned long)f->wide, (int)f->on, f->nibble);
	STAP_PROBE3(sweep, bitfields_copy, g.small, g.neg, g.nibble);
	fprintf(out, "bitfields_copy %u %d %u\n", g.small, g.neg, g.nibble);
#if HAVE_C99
	STAP_PROBE2(sweep, bitfields_wide, f->huge, f->negative_huge);
	fprintf(out, "bitfields_wide %llu %lld\n", (unsigned long long)f->huge,
		(long long)f->negative_huge);
#endif
}

NOINLINE static void fire_qualified(void)
{
	const int local_c = c_int * 2;
	volatile boolean b = 1;
	enum level lo = LOW, hi = HIGH;

	STAP_PROBE6(sweep, qualified, c_int, v_long, cv_ushort, local_c, b, lo);
	fprintf(out, "qualified %d %ld %u %d %d %d\n", c_int, (long)v_long,
		(unsigned)cv_ushort, local_c, (int)b, (int)lo);
	STAP_PROBE3(sweep, enums, lo, hi, MID);
	fprintf(out, "enums %d %d %d\n", (int)lo, (int)hi, (int)MID);
}

NOINLINE static void fire_addresses(void)
{
	static const char literal[] = "literal";

	/* Touch the strings: BPF cannot fault in a page never mapped. */
	fprintf(out, "# %s %s %s\n", literal, buffer, "inline");
	STAP_PROBE4(sweep, addresses, buffer, literal, handler, &handler);
	fprintf(out, "addresses %lu %lu %lu %lu\n", u(buffer), u(literal),
		u((const void *)(size_t)&handler),
		u((const void *)(size_t)&handler));
	STAP_PROBE2(sweep, strings, buffer, "inline");
	fprintf(out, "strings %s %s\n", buffer, "inline");
}

NOINLINE static void fire_effects(int n)
{
	int i = n;

	evaluations = 0;
	STAP_PROBE3(sweep, effects, i++, bump(5), n * 10);
	fprintf(out, "effects %d %d %d\n", n, 5, n * 10);
	fprintf(out, "# evaluated %d %d\n", evaluations, i);
	if (evaluations != 1 || i != n + 1) {
		fprintf(stderr, "sweep: an argument was evaluated %d times\n",
			evaluations);
		exit(1);
	}
	STAP_PROBE2(sweep, commas, LAST_OF(i, 42), WRAPPED);
	fprintf(out, "commas 42 77\n");
}

/* Many probes in one function: each gets its own site and note. */
NOINLINE static void fire_many(int n)
{
	int k;

	for (k = 0; k < 3; k++) {
		STAP_PROBE2(sweep, loop, k, n);
		fprintf(out, "loop %d %d\n", k, n);
	}
	STAP_PROBE1(sweep, twice, n);
	fprintf(out, "twice %d\n", n);
	STAP_PROBE1(sweep, twice, -n);
	fprintf(out, "twice %d\n", -n);
	if (fire_gated(n))
		fprintf(out, "gated %d\n", n);
}

#if HAVE_C99
NOINLINE static void fire_variadic(int n)
{
	long a = -1, b = 2;
	unsigned char c = 200;
	int vla[n];

	vla[0] = 9;
	STAP_PROBEV(sweep, v0);
	fprintf(out, "v0\n");
	STAP_PROBEV(sweep, v1, a);
	fprintf(out, "v1 %ld\n", a);
	STAP_PROBEV(sweep, v3, a, b, c);
	fprintf(out, "v3 %ld %ld %u\n", a, b, c);
	STAP_PROBEV(sweep, v6, 1, -2, 3, -4, 5, -6);
	fprintf(out, "v6 1 -2 3 -4 5 -6\n");
	STAP_PROBEV(sweep, v12, 1, -2, 3, -4, 5, -6, 7, -8, 9, -10, a, c);
	fprintf(out, "v12 1 -2 3 -4 5 -6 7 -8 9 -10 %ld %u\n", a, c);
	STAP_PROBEV(sweep, vla, vla, vla[0], n);
	fprintf(out, "vla %lu %d %d\n", u(vla), vla[0], n);
}
#endif

int main(int argc, char **argv)
{
	struct flags f;

	f.small = 5;
	f.neg = -3;
	f.wide = 0x7edcba98UL;
	f.on = 1;
	f.nibble = 9;
#if HAVE_C99
	f.huge = 0xfedcba9876ULL;
	f.negative_huge = -34359738368LL;
#endif
	out = argc > 1 ? fopen(argv[1], "w") : stdout;
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fire_members(&f);
	fire_qualified();
	fire_addresses();
	fire_effects(argc + 2);
	fire_many(argc);
#if HAVE_C99
	fire_variadic(argc + 1);
#endif
	return fclose(out) != 0;
}
