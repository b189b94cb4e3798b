/* SPDX-License-Identifier: MIT */
/*
 * Probes for static.sh: 0 to 12 arguments of every integer kind, at their
 * extremes, as constants, locals, globals, thread-locals, pointers and
 * struct fields, built by the test with gcc and clang at several -O levels
 * so the compiler puts them in every kind of operand it may choose.
 *
 *   probes EXPECTED-FILE
 *
 * prints "ready PID SEMA", waits for SIGUSR1 (the tracer is attached),
 * fires every probe once and writes to EXPECTED-FILE, for each, what a
 * tracer must read: "NAME ARGC V0 V1 ...", each value as the note's size
 * and sign make it, as a signed 64-bit decimal. Then it prints "fired
 * SEMA-BEFORE SEMA-DURING", waits for a second SIGUSR1 (the tracer is
 * gone) and prints "detached SEMA". The semaphore-guarded probe lives in
 * sema.c (one unit has semaphores or none).
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sys/sdt.h>

unsigned sema_value(void);
int fire_guarded(long a, unsigned char b);

static FILE *want_file;

/* One expected line: NAME, the argument count, then that many values. */
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

/*
 * What a tracer reads for X: its value widened as its type is (sign- or
 * zero-extended), which is what `-SIZE@' or `SIZE@' asks for; pointers too.
 */
#define V(x) ((long long)(uintptr_t)(x))

/* Keeps X out of the compiler's constant folding: it must be computed. */
#define OPAQUE(x)                                                              \
	({                                                                     \
		__typeof__(x) _o = (x);                                        \
		__asm__("" : "+r"(_o));                                        \
		_o;                                                            \
	})

#define FIRE0(n)                                                               \
	do {                                                                   \
		STAP_PROBE(lb, n);                                             \
		want(#n, 0);                                                   \
	} while (0)
#define FIRE1(n, a)                                                            \
	do {                                                                   \
		STAP_PROBE1(lb, n, a);                                         \
		want(#n, 1, V(a));                                             \
	} while (0)
#define FIRE2(n, a, b)                                                         \
	do {                                                                   \
		STAP_PROBE2(lb, n, a, b);                                      \
		want(#n, 2, V(a), V(b));                                       \
	} while (0)
#define FIRE3(n, a, b, c)                                                      \
	do {                                                                   \
		STAP_PROBE3(lb, n, a, b, c);                                   \
		want(#n, 3, V(a), V(b), V(c));                                 \
	} while (0)
#define FIRE4(n, a, b, c, d)                                                   \
	do {                                                                   \
		STAP_PROBE4(lb, n, a, b, c, d);                                \
		want(#n, 4, V(a), V(b), V(c), V(d));                           \
	} while (0)
#define FIRE5(n, a, b, c, d, e)                                                \
	do {                                                                   \
		STAP_PROBE5(lb, n, a, b, c, d, e);                             \
		want(#n, 5, V(a), V(b), V(c), V(d), V(e));                     \
	} while (0)
#define FIRE6(n, a, b, c, d, e, f)                                             \
	do {                                                                   \
		DTRACE_PROBE6(lb, n, a, b, c, d, e, f);                        \
		want(#n, 6, V(a), V(b), V(c), V(d), V(e), V(f));               \
	} while (0)
#define FIRE7(n, a, b, c, d, e, f, g)                                          \
	do {                                                                   \
		STAP_PROBE7(lb, n, a, b, c, d, e, f, g);                       \
		want(#n, 7, V(a), V(b), V(c), V(d), V(e), V(f), V(g));         \
	} while (0)
#define FIRE8(n, a, b, c, d, e, f, g, h)                                       \
	do {                                                                   \
		STAP_PROBE8(lb, n, a, b, c, d, e, f, g, h);                    \
		want(#n, 8, V(a), V(b), V(c), V(d), V(e), V(f), V(g), V(h));   \
	} while (0)
#define FIRE9(n, a, b, c, d, e, f, g, h, i)                                    \
	do {                                                                   \
		STAP_PROBE9(lb, n, a, b, c, d, e, f, g, h, i);                 \
		want(#n, 9, V(a), V(b), V(c), V(d), V(e), V(f), V(g), V(h),    \
		     V(i));                                                    \
	} while (0)
#define FIRE10(n, a, b, c, d, e, f, g, h, i, j)                                \
	do {                                                                   \
		STAP_PROBE10(lb, n, a, b, c, d, e, f, g, h, i, j);             \
		want(#n, 10, V(a), V(b), V(c), V(d), V(e), V(f), V(g), V(h),   \
		     V(i), V(j));                                              \
	} while (0)
#define FIRE11(n, a, b, c, d, e, f, g, h, i, j, k)                             \
	do {                                                                   \
		STAP_PROBE11(lb, n, a, b, c, d, e, f, g, h, i, j, k);          \
		want(#n, 11, V(a), V(b), V(c), V(d), V(e), V(f), V(g), V(h),   \
		     V(i), V(j), V(k));                                        \
	} while (0)
#define FIRE12(n, a, b, c, d, e, f, g, h, i, j, k, l)                          \
	do {                                                                   \
		DTRACE_PROBE12(lb, n, a, b, c, d, e, f, g, h, i, j, k, l);     \
		want(#n, 12, V(a), V(b), V(c), V(d), V(e), V(f), V(g), V(h),   \
		     V(i), V(j), V(k), V(l));                                  \
	} while (0)

enum color { red = -3, green = 7 };

struct record {
	char tag;
	short count;
	int id;
	long long total;
	const char *label;
};

/* Globals: the compiler may address them relative to %rip. */
signed char g_i8 = SCHAR_MIN;
unsigned char g_u8 = UCHAR_MAX;
short g_i16 = SHRT_MIN;
unsigned short g_u16 = USHRT_MAX;
int g_i32 = INT_MIN;
unsigned g_u32 = UINT_MAX;
long long g_i64 = LLONG_MIN;
unsigned long long g_u64 = ULLONG_MAX;
static struct record g_rec = { 'r', -2, 99, -123456789012LL, "global" };
static const char g_text[] = "text in rodata";

/* Thread-locals: %fs-relative, which no consumer can read as an operand. */
static __thread signed char t_i8;
static __thread unsigned char t_u8;
static __thread short t_i16;
static __thread unsigned short t_u16;
static __thread int t_i32;
static __thread unsigned t_u32;
static __thread long long t_i64;
static __thread unsigned long long t_u64;

static void set_thread_locals(void)
{
	t_i8 = SCHAR_MAX;
	t_u8 = 0x80;
	t_i16 = SHRT_MAX;
	t_u16 = 0x8000;
	t_i32 = INT_MAX;
	t_u32 = 0x80000000u;
	t_i64 = LLONG_MAX;
	t_u64 = 0x8000000000000000ull;
}

static int helper(int x)
{
	return x * 3;
}

static void fire_all(int argc)
{
	signed char sc = OPAQUE((signed char)SCHAR_MIN);
	unsigned char uc = OPAQUE((unsigned char)UCHAR_MAX);
	char ch = OPAQUE((char)-5);
	_Bool b = OPAQUE((_Bool)1);
	short s = OPAQUE((short)SHRT_MIN);
	unsigned short us = OPAQUE((unsigned short)USHRT_MAX);
	int i = OPAQUE(INT_MIN), imax = OPAQUE(INT_MAX);
	unsigned u = OPAQUE(UINT_MAX), uzero = OPAQUE(0u);
	long l = OPAQUE(LONG_MIN);
	unsigned long ul = OPAQUE(ULONG_MAX);
	long long ll = OPAQUE(LLONG_MAX);
	unsigned long long ull = OPAQUE(ULLONG_MAX);
	int8_t i8 = OPAQUE((int8_t)-1);
	uint8_t u8 = OPAQUE((uint8_t)0x7f);
	int16_t i16 = OPAQUE((int16_t)-300);
	uint16_t u16 = OPAQUE((uint16_t)40000);
	int32_t i32 = OPAQUE((int32_t)-70000);
	uint32_t u32 = OPAQUE((uint32_t)3000000000u);
	int64_t i64 = OPAQUE((int64_t)-5000000000LL);
	uint64_t u64 = OPAQUE((uint64_t)0xfedcba9876543210ull);
	size_t sz = OPAQUE((size_t)SIZE_MAX);
	ssize_t ssz = OPAQUE((ssize_t)-1);
	intptr_t ip = OPAQUE((intptr_t)INTPTR_MIN);
	enum color col = OPAQUE(red);
	struct record rec = { 'x', OPAQUE((short)-7), OPAQUE(123456),
			      OPAQUE(-9876543210LL), "local" };
	struct record *rp = OPAQUE(&g_rec);
	int arr[4] = { argc, argc * 2, -argc, argc * 1000 };
	int (*fp)(int) = OPAQUE(&helper);
	const char *str = OPAQUE(&g_text[0]);
	void *null = OPAQUE((void *)0);

	FIRE0(a0);
	FIRE1(a1, sc);
	FIRE2(a2, uc, ch);
	FIRE3(a3, s, us, b);
	FIRE4(a4, i, u, imax, uzero);
	FIRE5(a5, l, ul, ll, ull, ch);
	FIRE6(a6, i8, u8, i16, u16, i32, u32);
	FIRE7(a7, i64, u64, sz, ssz, ip, col, str);
	/* Constants: the header puts even these in registers. */
	FIRE8(a8, 0, -1, 127, (signed char)-128, 0x7fffffff, -0x80000000LL,
	      0x123456789abcdefLL, ULLONG_MAX);
	FIRE9(a9, g_i8, g_u8, g_i16, g_u16, g_i32, g_u32, g_i64, g_u64, &g_i32);
	FIRE10(a10, t_i8, t_u8, t_i16, t_u16, t_i32, t_u32, t_i64, t_u64,
	       &t_i32, t_i64 - 1);
	FIRE11(a11, &rec, null, rec.tag, rec.count, rec.id, rec.total, rp->tag,
	       rp->count, rp->total, fp, arr[argc % 4]);
	FIRE12(a12, sc, uc, s, us, i, u, l, ul, g_i32, t_i64, 42, rp);
	/* Expressions: sums, a call's result, argc itself. */
	FIRE4(expr, argc, argc + i64, helper(argc), (long)(argc - 2));
	/* One argument in each of twelve kinds, all different sizes and signs.
	 */
	FIRE12(kinds, b, ch, (short)-1, (unsigned short)1, -1, 1u, -1L, 1UL,
	       (int8_t)argc, (uint16_t)-argc, (int32_t)-argc, (uint64_t)-argc);
}

/* Floats travel as their raw bits, unsigned. */
static void fire_floats(void)
{
	float f = OPAQUE(1.5f);
	double d = OPAQUE(-2.25);
	uint32_t fb;
	uint64_t db;

	memcpy(&fb, &f, sizeof(fb));
	memcpy(&db, &d, sizeof(db));
	STAP_PROBE2(lb, floats, f, d);
	want("floats", 2, (long long)fb, (long long)db);
}

int main(int argc, char **argv)
{
	sigset_t set;
	int sig;
	unsigned before, during;

	if (argc != 2) {
		fprintf(stderr, "usage: probes EXPECTED-FILE\n");
		return 2;
	}
	want_file = fopen(argv[1], "w");
	if (!want_file) {
		perror(argv[1]);
		return 1;
	}
	set_thread_locals();
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	before = sema_value();
	printf("ready %d %u\n", (int)getpid(), before);
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;

	fire_all(argc);
	fire_floats();
	during = sema_value();
	if (fire_guarded(-424242, 200))
		want("guarded", 2, -424242LL, 200LL);
	if (fclose(want_file) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("fired %u %u\n", before, during);
	fflush(stdout);
	if (sigwait(&set, &sig) != 0)
		return 1;
	printf("detached %u\n", sema_value());
	return 0;
}
