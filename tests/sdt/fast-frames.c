/* SPDX-License-Identifier: MIT */
/*
 * Fast sites (SDTKIT_FAST_ATTACH) where unwinding and arguments are
 * easiest to get wrong, for fast-sites.sh under gdb: a leaf whose frame
 * is %rsp-based at -O2 (ff:leaf), a function with a frame of its own and
 * a call before the probe (ff:framed), and %rsp itself as an argument
 * (ff:sp), which the site must hand over as a copy in another register:
 * at the PC, %rsp is 128 bytes lower. Stopped at each, gdb's backtrace
 * must read leaf/framed/main, and the arguments what was passed.
 */
#include <sys/sdt.h>

__attribute__((noinline)) long leaf(long a, long *p)
{
	long x = a * 3;

	STAP_PROBE2(ff, leaf, a, x);
	return x + *p;
}

__attribute__((noinline)) long framed(long a)
{
	volatile long buf[8];
	long r;

	for (int i = 0; i < 8; i++)
		buf[i] = a + i;
	r = leaf(a, (long *)&buf[2]);
	STAP_PROBE2(ff, framed, r, buf[3]);
	return r + buf[1];
}

int main(int argc, char **argv)
{
#if defined(__GNUC__) && !defined(__clang__)
	/* clang honors such a variable only as an asm operand of its own. */
	register void *sp __asm__("rsp");

	STAP_PROBE1(ff, sp, sp);
#endif
	(void)argv;
	return framed(argc + 40) == 0;
}
