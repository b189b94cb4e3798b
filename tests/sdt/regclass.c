/*
 * Probe arguments that the program keeps in explicit register variables of
 * every class x86 compilers let it name: general, SSE (xmm), MMX, x87 and,
 * built with -mavx512f, AVX-512 (ymm, zmm, xmm16, k masks; compiled, not
 * run). Whatever the class, a tracer must find each value in a general
 * register (or frame slot) it can read. Run, it writes to the file named by
 * argv[1] one "probe value" line per probe: the value as gdb prints the
 * argument; for a float, its raw bits (unsigned, as the spec says), then
 * the number gdb's print/f makes of those bits. regclass.sh builds it with
 * gcc and clang, C and C++, -O0 to -O3, for x86_64, i686 and x32 (where
 * no C library may be installed: -DNO_MAIN leaves out the program part).
 */
#include <sys/sdt.h>

#define NOINLINE __attribute__((noinline))
/* C, or C++ up to C++14: C++17 has no "register", clang++ no such variable. */
#define REGVAR(type, name, reg) register type name __asm__(reg)
#if defined(__x86_64__)
#define GP_REG "rbx"
#else
#define GP_REG "ebx"
#endif

/* Read through volatile, so each value is only known at run time. */
static volatile int v_int = -5;
static volatile int v_long_lo = 1234567;
static volatile double v_double = -2.25;
static volatile float v_float = 1.5f;

#ifndef NO_MAIN
#include <stdio.h>
#include <string.h>

static FILE *out;

static unsigned long long double_bits(double d)
{
	unsigned long long u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static unsigned float_bits(float f)
{
	unsigned u;

	memcpy(&u, &f, sizeof(u));
	return u;
}
#endif

NOINLINE int general(void)
{
	REGVAR(int, r, GP_REG) = v_int;

	STAP_PROBE1(regs, general, r);
	return r;
}

NOINLINE int sse_int(void)
{
	REGVAR(int, r, "xmm0") = v_int * 3;

	STAP_PROBE1(regs, sse_int, r);
	return r;
}

NOINLINE long long sse_wide(void)
{
	REGVAR(long long, r, "xmm7") = (long long)v_long_lo * -1000;

	STAP_PROBE1(regs, sse_wide, r);
	return r;
}

NOINLINE double sse_double(void)
{
	REGVAR(double, r, "xmm1") = v_double;

	STAP_PROBE1(regs, sse_double, r);
	return r;
}

NOINLINE float sse_float(void)
{
	REGVAR(float, r, "xmm2") = v_float;

	STAP_PROBE1(regs, sse_float, r);
	return r;
}

NOINLINE int mmx_int(void)
{
	REGVAR(int, r, "mm0") = v_int - 1;
	int v;

	STAP_PROBE1(regs, mmx_int, r);
	v = r;
	/* MMX shares the x87 registers: give them back to x87 code. */
	__asm__ __volatile__("emms");
	return v;
}

NOINLINE double x87_double(void)
{
	REGVAR(double, r, "st") = v_double * 2;

	STAP_PROBE1(regs, x87_double, r);
	return r;
}

NOINLINE float x87_float(void)
{
	REGVAR(float, r, "st") = v_float * 2;

	STAP_PROBE1(regs, x87_float, r);
	return r;
}

#ifdef __AVX512F__
/* Compiled only: the machine running the tests may lack AVX-512. */
NOINLINE int avx512(void)
{
	REGVAR(int, y, "ymm3") = v_int;
	REGVAR(int, z, "zmm4") = v_int + 1;
	REGVAR(int, x, "xmm17") = v_int + 2;
	REGVAR(short, k, "k1") = (short)v_int;

	STAP_PROBE1(regs, avx512_ymm, y);
	STAP_PROBE1(regs, avx512_zmm, z);
	STAP_PROBE1(regs, avx512_xmm17, x);
	STAP_PROBE1(regs, avx512_k, k);
	return y + z + x + k;
}
#endif

#ifndef NO_MAIN
int main(int argc, char **argv)
{
	double d;
	float f;

	if (argc < 2 || !(out = fopen(argv[1], "w")))
		return 2;
	fprintf(out, "general %d\n", general());
	fprintf(out, "sse_int %d\n", sse_int());
	fprintf(out, "sse_wide %lld\n", sse_wide());
	d = sse_double();
	fprintf(out, "sse_double %llu %g\n", double_bits(d), d);
	f = sse_float();
	fprintf(out, "sse_float %u %g\n", float_bits(f), (double)f);
	fprintf(out, "mmx_int %d\n", mmx_int());
	d = x87_double();
	fprintf(out, "x87_double %llu %g\n", double_bits(d), d);
	f = x87_float();
	fprintf(out, "x87_float %u %g\n", float_bits(f), (double)f);
	return fclose(out) != 0;
}
#endif
