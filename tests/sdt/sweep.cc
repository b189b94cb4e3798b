/*
 * What real C++ code passes to <sys/sdt.h> probes (Folly's, HotSpot's and
 * MariaDB's tracepoints, dtrace -h headers included from C++): probes in
 * templates with arguments of dependent types, in inline and constexpr
 * functions, lambdas and class members; references, const and volatile
 * objects, bool, every character type, enum and enum class (negative
 * values too), bit-fields, arrays, string literals and functions passed
 * directly, and arguments with side effects, evaluated exactly once.
 * Valid from C++98 to C++20, with or without exceptions and RTTI.
 *
 * Run with a file name, it fires every probe once and writes to the file
 * what a tracer must print for it (see sweep.c); tests/sdt/sweep.sh
 * compares that with what bpftrace and gdb read.
 */
#include <sys/sdt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __cplusplus >= 201103L
#define HAVE_CXX11 1
#else
#define HAVE_CXX11 0
#endif

#define NOINLINE __attribute__((noinline))

static FILE *out;
static int evaluations;

static unsigned long u(const void *p)
{
	return (unsigned long)p;
}

typedef uint64_t u64;

/* A double's bits in decimal: C++98 printf has no %llu. */
static const char *bits(double d)
{
	static char buf[2][24];
	static int k;
	char *p = buf[k++ & 1] + sizeof(buf[0]) - 1;
	u64 b;

	memcpy(&b, &d, sizeof(b));
	*p = 0;
	do
		*--p = (char)('0' + b % 10);
	while (b /= 10);
	return p;
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

/* A template whose probe argument types depend on its parameters. */
template <typename T, typename U> NOINLINE T scaled(T value, const U &by)
{
	T result = static_cast<T>(value * by);

	STAP_PROBE3(sweepxx, scaled, value, by, result);
	return result;
}

template <typename T> struct box {
	T value;
	NOINLINE T get() const
	{
		STAP_PROBE2(sweepxx, member, this, value);
		return value;
	}
	static NOINLINE T twice(T v)
	{
		STAP_PROBE1(sweepxx, static_member, v);
		return v + v;
	}
};

inline int inline_probe(int v)
{
	STAP_PROBE1(sweepxx, inline_fn, v);
	return v;
}

#if __cplusplus >= 202002L
/* asm is allowed in a constexpr function that is not evaluated as one. */
constexpr int constexpr_probe(int v)
{
	if (!__builtin_is_constant_evaluated())
		STAP_PROBE1(sweepxx, constexpr_fn, v);
	return v * 3;
}
static_assert(constexpr_probe(2) == 6, "constexpr_probe is constexpr");
#endif

enum level { LOW = -2, HIGH = 3 };
#if HAVE_CXX11
enum class mode : short { off = -1, on = 1 };
enum class big : unsigned long long { top = 0xffffffffffffffffULL };
#endif

struct flags {
	unsigned small : 3;
	int neg : 5;
	bool on : 1;
};

NOINLINE static void fire_templates()
{
	long l = scaled(-21L, 2);
	double d = scaled(1.5, 3);
	unsigned char c = scaled<unsigned char>(100, 2);
	box<int> bi = { -8 };
	box<unsigned short> bs = { 65535 };

	fprintf(out, "scaled -21 2 -42\n");
	fprintf(out, "scaled %s 3 %s\n", bits(1.5), bits(4.5));
	fprintf(out, "scaled %d %d %d\n", 100, 2, 200);
	fprintf(out, "member %lu %d\n", u(&bi), bi.value);
	fprintf(out, "member %lu %u\n", u(&bs), (unsigned)bs.value);
	fprintf(out, "static_member %d\n", -8);
	if (l + (long)d + c + bi.get() + bs.get() + box<int>::twice(-8) == 0)
		abort();
}

NOINLINE static void fire_types(int n)
{
	int value = n;
	int &ref = value;
	const int &cref = value;
	const volatile long cv = -5;
	bool yes = true;
	char ch = 'A';
	signed char sc = -100;
	unsigned char uc = 250;
	wchar_t wc = L'\x263a';
	level lv = LOW;
	flags f;

	f.small = 6;
	f.neg = -9;
	f.on = true;
	STAP_PROBE6(sweepxx, refs, ref, cref, cv, yes, lv, HIGH);
	fprintf(out, "refs %d %d %ld %d %d %d\n", n, n, -5L, 1, -2, 3);
	STAP_PROBE4(sweepxx, chars, ch, sc, uc, wc);
	fprintf(out, "chars %d %d %u %d\n", ch, sc, uc, (int)wc);
	STAP_PROBE3(sweepxx, bitfields, f.small, f.neg, f.on);
	fprintf(out, "bitfields %u %d %d\n", f.small, f.neg, (int)f.on);
#if HAVE_CXX11
	char16_t c16 = u'\xfffe';
	char32_t c32 = U'\x10ffff';
	mode m = mode::off;
	big b = big::top;

	STAP_PROBE4(sweepxx, modern, c16, c32, m, b);
	fprintf(out, "modern %u %u %d %llu\n", (unsigned)c16, (unsigned)c32,
		-1, 0xffffffffffffffffULL);
	STAP_PROBE2(sweepxx, null, nullptr, mode::on);
	fprintf(out, "null 0 1\n");
#endif
#if defined(__cpp_char8_t)
	char8_t c8 = u8'z';

	STAP_PROBE1(sweepxx, char8, c8);
	fprintf(out, "char8 %u\n", (unsigned)c8);
#endif
}

struct two {
	int a;
	long b;
};

NOINLINE static void fire_addresses()
{
	static const char literal[] = "literal";
	static int table[4] = { 1, 2, 3, 4 };
#ifndef SWEEP_NO_MEMBER_PTR
	long two::*member = &two::b;
#endif

	fprintf(out, "# %s %s\n", literal, "inline");
	STAP_PROBE4(sweepxx, addresses, literal, table, handler, &handler);
	fprintf(out, "addresses %lu %lu %lu %lu\n", u(literal), u(table),
		u((const void *)(size_t)&handler),
		u((const void *)(size_t)&handler));
	STAP_PROBE1(sweepxx, string, "inline");
#ifndef SWEEP_NO_MEMBER_PTR
	/*
	 * A pointer to a data member is the member's offset. clang 19 and
	 * later refuse one in a register operand (tests/sdt/sweep.sh).
	 */
	STAP_PROBE1(sweepxx, member_ptr, member);
	fprintf(out, "member_ptr %u\n", (unsigned)offsetof(two, b));
#endif
	fprintf(out, "string %s\n", "inline");
}

NOINLINE static void fire_effects(int n)
{
	int i = n;

	evaluations = 0;
	STAP_PROBE3(sweepxx, effects, i++, bump(7), n * 10);
	fprintf(out, "effects %d %d %d\n", n, 7, n * 10);
	if (evaluations != 1 || i != n + 1) {
		fprintf(stderr, "sweep: an argument was evaluated twice\n");
		exit(1);
	}
#if HAVE_CXX11
	auto probe_in_lambda = [&](int k) {
		STAP_PROBE2(sweepxx, lambda, k, i);
		return k + i;
	};
	fprintf(out, "lambda %d %d\n", n, i);
	if (probe_in_lambda(n) != n + i)
		abort();
#endif
}

int main(int argc, char **argv)
{
	out = argc > 1 ? fopen(argv[1], "w") : stdout;
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fire_templates();
	fire_types(argc + 40);
	fire_addresses();
	fire_effects(argc + 2);
	fprintf(out, "inline_fn %d\n", argc);
	if (inline_probe(argc) != argc)
		return 1;
#if __cplusplus >= 202002L
	fprintf(out, "constexpr_fn %d\n", argc);
	if (constexpr_probe(argc) != argc * 3)
		return 1;
#endif
	return fclose(out) != 0;
}
