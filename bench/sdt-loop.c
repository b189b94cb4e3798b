/*
 * A loop firing one probe per iteration with ARGS arguments (0, 2, 6 or
 * 12; -1: no probe, the baseline), built against the header named by
 * SDT_HEADER: ours or SystemTap's. bench/sdt-cost.sh counts instructions.
 */
#include SDT_HEADER
#include <stdlib.h>

static volatile long sink;

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	const char *s = argv[0];

	for (i = 0; i < n; i++) {
		long x = i * 3;
		int y = (int)i ^ argc;
		unsigned char c = (unsigned char)i;
		short h = (short)(i >> 3);

		(void)x, (void)y, (void)c, (void)h, (void)s;
#if ARGS == 0
		STAP_PROBE(bench, p0);
#elif ARGS == 2
		STAP_PROBE2(bench, p2, x, y);
#elif ARGS == 6
		STAP_PROBE6(bench, p6, x, y, c, h, s, i);
#elif ARGS == 12
		STAP_PROBE12(bench, p12, x, y, c, h, s, i, x, y, c, h, s, n);
#endif
		sink = x + y;
	}
	return 0;
}
