/*
 * What debuggers and other projects' SDT tests expect of <sys/sdt.h>, in
 * one program that debugger.sh runs under gdb:
 *  - _SDT_NOTE_NAME and _SDT_NOTE_TYPE, tested by the preprocessor;
 *  - one probe at two sites whose argument counts differ (gdb makes one
 *    breakpoint with two locations, and $_probe_argc differs per site);
 *  - string pointers, a value returned through a function pointer, an
 *    int the program keeps in %xmm0, bit-fields and a char array;
 *  - semaphores the program defines itself in .probes (-DWITH_SEMAPHORES):
 *    gdb counts them up while it has a breakpoint on the probe, so a
 *    guarded probe fires only under gdb;
 *  - STAP_PROBEV with 0 and 12 arguments.
 */
#ifdef WITH_SEMAPHORES
#define _SDT_HAS_SEMAPHORES 1
#define SEMA(name) __attribute__((section(".probes"))) unsigned short name
SEMA(app_twice_semaphore);
SEMA(app_strings_semaphore);
SEMA(app_xmm_semaphore);
SEMA(app_bits_semaphore);
SEMA(app_many_semaphore);
SEMA(app_none_semaphore);
#define ENABLED(sema) (sema)
#else
#define ENABLED(sema) 1
#endif

#include <sys/sdt.h>
#include <string.h>

#if _SDT_NOTE_TYPE != 3
#error "_SDT_NOTE_TYPE is not the stapsdt note type 3"
#endif

#define NOINLINE __attribute__((noinline))

struct handler {
	int id;
	const char *(*describe)(int);
};

struct flags {
	unsigned on : 1;
	signed tri : 3;
	unsigned char tag;
	unsigned wide : 17;
};

static volatile int seed = 7;

NOINLINE static const char *describe(int v)
{
	return v ? "odd one" : "even one";
}

/* The same probe twice: once with an argument, once without. */
NOINLINE static void twice_with(void)
{
	volatile int local = 5;

	if (ENABLED(app_twice_semaphore))
		STAP_PROBE1(app, twice, local);
}

NOINLINE static void twice_without(void)
{
	if (ENABLED(app_twice_semaphore))
		STAP_PROBE(app, twice);
}

NOINLINE static void strings(const struct handler *h, int v)
{
	const char *first = "first message";

	if (ENABLED(app_strings_semaphore))
		STAP_PROBE4(app, strings, h->id, h->describe(v), first, v);
}

NOINLINE static int in_xmm(int v)
{
#ifdef __SSE2__
	register int r __asm__("xmm0") = v;
#else
	int r = v;
#endif

	if (ENABLED(app_xmm_semaphore))
		STAP_PROBE1(app, xmm, r);
	return r;
}

NOINLINE static void bits(const struct flags *f)
{
	char name[8];

	strcpy(name, "flags");
	if (ENABLED(app_bits_semaphore))
		STAP_PROBE5(app, bits, f->on, f->tri, f->tag, f->wide, name);
}

NOINLINE static void many(int base)
{
	if (ENABLED(app_none_semaphore))
		STAP_PROBEV(app, none);
	if (ENABLED(app_many_semaphore))
		STAP_PROBEV(app, many, base, base + 1, base + 2, base + 3,
			    base + 4, base + 5, base + 6, base + 7, base + 8,
			    base + 9, base + 10, base + 11);
}

int main(void)
{
	struct handler h = { 42, describe };
	struct flags f = { 1, -2, 200, 100000 };

	twice_with();
	twice_without();
	strings(&h, 0);
	strings(&h, 1);
	in_xmm(0x1234 + seed - 7);
	bits(&f);
	many(seed);
	return strcmp(_SDT_NOTE_NAME, "stapsdt") != 0;
}
