/*
 * Probe uses that are legal but look odd to a compiler's warnings, one
 * case per -DCASE_<name> (SystemTap's header refuses some of them, so each
 * builds alone). tests/sdt/warnings.sh compiles every case with our header
 * and with SystemTap's under -Wall -Wextra and fails on any warning ours
 * gives that theirs does not. Valid C89 to C2x and C++98 to C++20.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

struct rec {
	unsigned ready : 1;
	signed level : 3;
	unsigned wide : 20;
	int plain;
	char label[8];
	struct {
		short x, y;
	} at;
};
enum mode { MODE_OFF, MODE_ON, MODE_BIG = 0x7fffffff };
typedef void (*callback)(int);

#ifdef CASE_freed
/* The pointer's value after free() and realloc(): no access through it. */
void freed(char *p, char *r, size_t n)
{
	char *q;

	free(p);
	DTRACE_PROBE1(app, freed, p);
	q = (char *)realloc(r, n);
	STAP_PROBE2(app, resized, r, q);
	free(q);
}
#endif

#ifdef CASE_bitfields
void bitfields(struct rec *f, struct rec v)
{
	STAP_PROBE3(app, bits, f->ready, f->level, f->wide);
	STAP_PROBE3(app, bits_copy, v.ready, v.level, v.wide);
}
#endif

#ifdef CASE_arrays
char table[4][8];
void arrays(struct rec *f)
{
	char buf[16];
	int grid[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };

	strcpy(buf, "hi");
	STAP_PROBE5(app, arrays, buf, grid, grid[1], f->label, table[2]);
	STAP_PROBE2(app, literal, "text", &"text"[1]);
}
#endif

#ifdef CASE_functions
static void on_event(int v)
{
	(void)v;
}
void functions(callback cb)
{
	callback local = on_event;

	STAP_PROBE4(app, functions, cb, on_event, &on_event, local);
	STAP_PROBE1(app, libc, &free);
}
#endif

#ifdef CASE_members
void members(struct rec *f, struct rec v)
{
	STAP_PROBE5(app, members, f->plain, f->at.x, v.at.y, &f->at, v.plain);
	STAP_PROBE2(app, deep, (*f).at.y, &(&v)->plain);
}
#endif

#ifdef CASE_qualifiers
volatile int g_volatile = 1;
const volatile long g_cv = 2;
void qualifiers(const volatile int *cvp)
{
	const volatile int cv = 3;
	volatile long vl = 4;
	const char *const cp = "x";
	static const volatile unsigned char scv = 5;

	STAP_PROBE4(app, qualified, cv, vl, cp, scv);
	STAP_PROBE3(app, globals, g_volatile, g_cv, *cvp);
}
#endif

#ifdef CASE_int128
/* Not by value (no tracer reads 16 bytes): its halves and its address. */
void wide(__int128 big, unsigned __int128 ubig)
{
	STAP_PROBE3(app, int128, (long long)big,
		    (unsigned long long)(ubig >> 64), &big);
}
#endif

#ifdef CASE_enums
void enums(enum mode m)
{
	enum mode local = MODE_BIG;

	STAP_PROBE3(app, enums, m, local, MODE_ON);
}
#endif

#ifdef CASE_maybe_unset
/* Set and probed under the same condition, which gcc cannot always see. */
int maybe_unset(int c, int d)
{
	int x;

	if (c > d)
		x = c * 2;
	if (c > d)
		STAP_PROBE1(app, maybe, x);
	return c;
}
#endif

#ifdef CASE_exprs
void exprs(int a, unsigned b, double d, float f)
{
	STAP_PROBE6(app, exprs, a < 0, a == (int)b, -b, d * 2, f, (char)a);
	STAP_PROBE4(app, sizes, sizeof(struct rec), (short)a, 'c', a ? 1 : 0);
	STAP_PROBE2(app, assign, a += 1, b++);
}
#endif

#ifdef CASE_scope_ended
/* A pointer to a variable whose scope has ended: only its value is used. */
void scope_ended(void)
{
	int *p;
	{
		int inner = 1;
		p = &inner;
	}
	STAP_PROBE1(app, dangling, p);
}
#endif

#ifdef CASE_voids
void voids(void *v, const void *cv)
{
	STAP_PROBE4(app, voidp, v, cv, (void *)0, NULL);
}
#endif

#if defined(CASE_registers) && !defined(__cplusplus)
/* Locals the program asked to keep in registers (C: C++17 has no "register").
 */
long registers(long a, double d)
{
	register long r = a;
	register double x = d;

	STAP_PROBE2(app, registers, r, x);
	return r + (long)x;
}
#endif

#if defined(CASE_literals) && !defined(__cplusplus) &&                         \
	defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
/* Compound literals (C99): clang once took them for file scope. */
int literals(int a)
{
	STAP_PROBE3(app, literals, ((struct rec){ .plain = a }).plain,
		    ((int[]){ a, 1 })[1], ((struct rec){ .plain = a }).label);
	return a;
}
#endif

#ifdef CASE_unused
/* A variable used only by a probe: the probe is a use. */
void unused(int a)
{
	int only_probed = a * 3;

	STAP_PROBE1(app, unused, only_probed);
}
#endif

#ifdef CASE_shadow
/* Names a header's macros might also use. */
void shadow(int _SDT_A1, int __sdt_x, int arg1)
{
	int provider = 1, name = 2;

	STAP_PROBE5(app, shadow, _SDT_A1, __sdt_x, arg1, provider, name);
}
#endif

#ifdef CASE_never_set
/* A local never set: the probe reads whatever it holds. */
void never_set(void)
{
	int y;

	STAP_PROBE1(app, never_set, y);
}
#endif
