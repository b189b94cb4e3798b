/*
 * <usdt.h> probes whose argument types the compiler can tell: the typed
 * records it writes give sdt-list `const char *' where the spec says only
 * "8 bytes", with no .d file. Built as C and as C++ (typed.sh).
 */
#include <stdio.h>
#include <string.h>

#include <usdt.h>

struct pair {
	short a, b;
};
enum level { LOW, HIGH };

/* Not inlined: each probe is one site, the listing one line per probe. */
__attribute__((noinline)) static void fire(const char *path, char *buf, long n)
{
	struct pair p = { 1, 2 };
	enum level l = HIGH;

	USDT(typed, open, path, (int)n, n * 3);
	USDT(typed, bytes, buf, (unsigned char)n, (unsigned long long)n, p);
	USDT(typed, level, l, (short)-n, (void *)buf, 2.5);
}

int main(int argc, char **argv)
{
	char buf[32];
	const char *path = argc > 1 ? argv[1] : "/etc/hosts";

	snprintf(buf, sizeof(buf), "buf-%d", argc);
	/* BPF cannot fault a page in: the strings are touched first. */
	printf("%s %s\n", path, buf);
	fflush(stdout);
	fire(path, buf, argc);
	return 0;
}
