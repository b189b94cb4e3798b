/*
 * <sys/sdt.h> probes with no .d file: the record the header writes gives
 * each argument the type the compiler saw and, where the argument is a
 * plain identifier, its name. Built as C (C89 to C2x) and C++ (typed.sh).
 */
#include <stdio.h>

#include <sys/sdt.h>

struct req {
	int len;
	const char *host;
};
enum level { LOW, HIGH };

/* Not inlined: each probe is one site, the listing one line per probe. */
__attribute__((noinline)) static void fire(int id, const char *host,
					   struct req *r)
{
	char path[32];
	enum level level = HIGH;
	double ratio = 0.5;

	sprintf(path, "/page/%d.html", id);
	DTRACE_PROBE2(typed, request, id, path);
	STAP_PROBE3(typed, reply, r->len % 7, host, level);
	STAP_PROBE4(typed, misc, (unsigned char)id, (void *)r, ratio,
		    (id | 1) != 0);
}

int main(int argc, char **argv)
{
	struct req r;

	(void)argv;
	r.len = 10 + argc;
	r.host = "example.org";
	/* BPF cannot fault a page in: the string is touched first. */
	printf("%s\n", r.host);
	fflush(stdout);
	fire(argc - 1, r.host, &r);
	return 0;
}
