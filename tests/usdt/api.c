/* SPDX-License-Identifier: MIT */
/*
 * build.sh's compile-only unit, C and C++ alike: every form of the
 * <usdt.h> API (provider usdta), probes of <sys/sdt.h> in the same unit,
 * and arguments of every kind. Probe aN has N arguments; rec_* probes
 * take values that are not scalars of 1, 2, 4 or 8 bytes.
 */
#ifdef SDT_FIRST
#include <sys/sdt.h>
#endif
#include <usdt.h>
#include <sys/sdt.h>

struct three {
	unsigned char a, b, c;
};
struct sixteen {
	long long x, y;
};
struct bits {
	int s : 3;
	unsigned u : 5;
};

USDT_DEFINE_SEMA(api_explicit);

int api_all(int x, struct three t, struct sixteen s, struct bits b,
	    long double ld, const char *str);

int api_all(int x, struct three t, struct sixteen s, struct bits b,
	    long double ld, const char *str)
{
	static volatile int arr[2];
	int r = 0;

	USDT(usdta, a0);
	USDT(usdta, a1, x);
	USDT(usdta, a2, x, 2);
	USDT(usdta, a3, x, 2, 3);
	USDT(usdta, a4, x, 2, 3, 4);
	USDT(usdta, a5, x, 2, 3, 4, 5);
	USDT(usdta, a6, x, 2, 3, 4, 5, 6);
	USDT(usdta, a7, x, 2, 3, 4, 5, 6, 7);
	USDT(usdta, a8, x, 2, 3, 4, 5, 6, 7, 8);
	USDT(usdta, a9, x, 2, 3, 4, 5, 6, 7, 8, 9);
	USDT(usdta, a10, x, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	USDT(usdta, a11, x, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
	USDT(usdta, a12, x, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
	USDT(usdta, rec_three, t);
	USDT(usdta, rec_sixteen, s);
	USDT(usdta, rec_long_double, ld);
	USDT(usdta, scalars, b.s, b.u, arr, str, api_all, 1.5f);
	if (USDT_IS_ACTIVE(usdta, implicit))
		r |= 1;
	USDT_WITH_SEMA(usdta, implicit);
	USDT_WITH_SEMA(usdta, implicit_args, x, str);
	USDT_WITH_EXPLICIT_SEMA(api_explicit, usdta, explicit0);
	USDT_WITH_EXPLICIT_SEMA(api_explicit, usdta, explicit2, x, str);
	if (USDT_SEMA_IS_ACTIVE(api_explicit))
		r |= 2;
	STAP_PROBE2(usdta, stap, x, str);
	STAP_PROBEV(usdta, stapv, x, 2, 3);
	DTRACE_PROBE(usdta, dtrace);
	return r;
}
