/*
 * Probes over every kind of argument the header must place readably:
 * compiled by tests/sdt/lang-matrix.sh and cross-matrix.sh in every
 * language mode (C89 to C2x, C++98 to C++20, so this file is valid in all
 * of them), every optimization level and code model, then checked by the
 * strict validator. Run, it fires each probe once with known values
 * (tracers.sh reads them back).
 */
#include <sys/sdt.h>
#include <stddef.h>

#if (defined(__cplusplus) && __cplusplus >= 201103L) ||                        \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define HAVE_LONG_LONG 1
__extension__ typedef long long llong;
__extension__ typedef unsigned long long ullong;
#else
#define HAVE_LONG_LONG 0
#endif

#ifdef __cplusplus
typedef bool boolean;
#define TRUE true
#else
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
typedef _Bool boolean;
#else
typedef unsigned char boolean;
#endif
#define TRUE 1
#endif

struct pair {
	int a;
	long b;
	char c;
	unsigned short us;
	const char *name;
};
enum color { RED, GREEN, BLUE };
enum delta { DOWN = -1, UP = 1 };
typedef int (*handler)(int);

int g_int = -7;
static long g_static = 2;
static volatile int g_counter;
__thread int g_tls = 3;
int g_arr[4] = { 10, 11, 12, 13 };
struct pair g_pair = { -5, 6, 'p', 65535, "pair" };
double g_double = 2.5;
float g_float = -1.25f;

static int twice(int v)
{
	return 2 * v;
}

/* Keep each function whole: the probes' operands must survive inlining. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

NOINLINE void fire_kinds(int i, long l, const char *s, struct pair *p)
{
	int local[3];
	static int calls;
	char c = (char)-3;
	signed char sc = -4;
	unsigned char uc = 250;
	short sh = -300;
	unsigned short us = 65000;
	unsigned u = 4000000000U;
	unsigned long ul = (unsigned long)-1;
	boolean b = TRUE;
	enum color col = BLUE;
	enum delta dl = DOWN;
	handler h = twice;

	local[0] = i;
	local[1] = i + 1;
	local[2] = i + 2;
	calls++;
	g_counter = g_counter + 1;

	STAP_PROBE(kinds, none);
	STAP_PROBE1(kinds, one, i);
	STAP_PROBE4(kinds, ints, sc, uc, sh, us);
	STAP_PROBE4(kinds, words, i, u, l, ul);
	STAP_PROBE5(kinds, misc, c, b, col, dl, h);
	STAP_PROBE4(kinds, globals, g_int, g_static, g_counter, g_tls);
	STAP_PROBE4(kinds, places, g_arr[2], local[1], calls, g_pair.b);
	STAP_PROBE4(kinds, fields, p->a, p->c, p->us, p->name);
	STAP_PROBE4(kinds, pointers, s, p, g_arr, local);
	STAP_PROBE3(kinds, strings, "literal", s, g_pair.name);
	STAP_PROBE2(kinds, floats, g_float, g_double);
	STAP_PROBE4(kinds, consts, 0, -1, 42, 'x');
	STAP_PROBE2(kinds, functions, twice, &twice);
	STAP_PROBE2(kinds, exprs, i * 3 + 1, twice(i));
	DTRACE_PROBE12(kinds, twelve, i, l, c, sc, uc, sh, us, u, ul, s, p, b);
	DTRACE_PROBE12(kinds, twelve_globals, g_int, g_static, g_counter, g_tls,
		       g_arr[0], g_arr[1], g_arr[2], g_arr[3], g_pair.a,
		       g_pair.b, g_pair.c, g_pair.us);
#if HAVE_LONG_LONG
	{
		llong ll = -1234567890123LL;
		ullong ull = 18446744073709551615ULL;

		STAP_PROBE4(kinds, longlong, ll, ull, (llong)i, 9000000000LL);
		STAP_PROBE12(kinds, twelve_wide, ll, ull, ll, ull, ll, ull, ll,
			     ull, ll, ull, ll, ull);
	}
#endif
#if (defined(__cplusplus) && __cplusplus >= 201103L) ||                        \
	(defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
	STAP_PROBEV(kinds, v0);
	STAP_PROBEV(kinds, v2, i, s);
	STAP_PROBEV(kinds, v12, i, l, c, sc, uc, sh, us, u, ul, s, p, b);
#endif
}

int main(void)
{
	struct pair p = { 1, 2, 'z', 3, "name" };

	fire_kinds(-2, 123456789L, "hello", &p);
	return 0;
}
