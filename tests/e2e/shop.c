/* Fires tests/e2e/shop.d's probes with known values and writes what it
   passed, one line per hit, to the file named by argv[1]. */
#include <stdio.h>

#include "shop.h"

int main(int argc, char **argv)
{
	static const char *const customers[] = { "alice", "bob" };
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;

	if (!out)
		return 1;
	for (int i = 0; i < 2; i++) {
		const char *c = customers[i];

		/* BPF reads only pages already faulted in: touch the string. */
		fprintf(out, "# %s\n", c);
		E2ESHOP_ORDER_START(c, i - 3, 12345678901234567890ULL);
		fprintf(out,
			"e2eshop:order__start customer=%s items=%d "
			"cents=12345678901234567890\n",
			c, i - 3);
		if (E2ESHOP_ORDER_DONE_ENABLED()) {
			E2ESHOP_ORDER_DONE(c, -7L * (i + 1), (short)-2);
			fprintf(out,
				"e2eshop:order__done customer=%s status=%ld "
				"code=-2\n",
				c, -7L * (i + 1));
		}
		E2ESHOP_TICK((unsigned char)(250 + i));
		fprintf(out, "e2eshop:tick arg0=%d\n", 250 + i);
	}
	return fclose(out) != 0;
}
