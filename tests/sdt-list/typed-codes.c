/* SPDX-License-Identifier: MIT */
/*
 * Probes with compact type records (.note.sdtkit, note type 3: a byte per
 * argument's type, then the arguments as the site wrote them), written
 * here by hand as <sys/sdt.h> and <usdt.h> write them, so the sdt-list
 * tests depend on no header. Built with -DTEXT_RECORDS, every compact
 * record is instead the text record (type 1, marked "header" and "usdt")
 * the headers wrote before, with the same types: sdt-list must read the
 * two builds alike. Besides those, the same in both builds: a .d file's
 * record and a generated header's, which win over the compact ones of
 * their probes; and, in the compact build only, malformed compact records
 * (truncated, a count over 12, fewer names than types), which are
 * skipped with a warning. main() fires each probe once with known values.
 * The header's own records are left out: these are the only ones.
 */
#define SDTKIT_NO_TYPES
#include <sys/sdt.h>
#include <stdbool.h>
#include <stdio.h>

#include "sdtkit-note.h"

/*
 * A record of the compiler's types at a site: PROVIDER, PROBE, then per
 * argument its code C, its type text T (what code C stands for) and its
 * text N as the site wrote it.
 */
#ifdef TEXT_RECORDS
#define SITE1(pr, pb, c1, t1, n1)                                              \
	NOTE(1, S(pr) S(pb) S("1") S(t1) S(n1) S("header") S("usdt"))
#define SITE2(pr, pb, c1, t1, n1, c2, t2, n2)                                  \
	NOTE(1,                                                                \
	     S(pr) S(pb) S("2") S(t1) S(n1) S(t2) S(n2) S("header") S("usdt"))
#define SITE3(pr, pb, c1, t1, n1, c2, t2, n2, c3, t3, n3)                      \
	NOTE(1, S(pr) S(pb) S("3") S(t1) S(n1) S(t2) S(n2) S(t3) S(n3)         \
			S("header") S("usdt"))
#else
#define SITE1(pr, pb, c1, t1, n1) NOTE(3, S(pr) S(pb) B("1, " #c1) S(n1))
#define SITE2(pr, pb, c1, t1, n1, c2, t2, n2)                                  \
	NOTE(3, S(pr) S(pb) B("2, " #c1 ", " #c2) S(n1) S(n2))
#define SITE3(pr, pb, c1, t1, n1, c2, t2, n2, c3, t3, n3)                      \
	NOTE(3, S(pr) S(pb) B("3, " #c1 ", " #c2 ", " #c3) S(n1) S(n2) S(n3))
#endif

/* The README's example: a string and its name. */
SITE2("codes", "request", 6, "int", "id", 13, "char *", "path");
/* Every code a header writes, in three-argument probes. */
SITE3("codes", "chars", 1, "char", "c", 2, "signed char", "sc", 3,
      "unsigned char", "uc");
SITE3("codes", "shorts", 4, "short", "s", 5, "unsigned short", "us", 12, "bool",
      "flag");
SITE3("codes", "ints", 6, "int", "i", 7, "unsigned int", "ui", 8, "long", "l");
SITE3("codes", "longs", 9, "unsigned long", "ul", 10, "long long", "ll", 11,
      "unsigned long long", "ull");
SITE3("codes", "pointers", 14, "const char *", "text", 16, "void *", "p", 17,
      "float", "f");
SITE1("codes", "dbl", 18, "double", "d");
/* Unknown (0) and unassigned codes keep the spec's size and sign. */
SITE3("codes", "unknown", 0, "", "a", 15, "", "b", 200, "", "c");
/* An expression is no name; an identifier after it still is. */
SITE2("codes", "expr", 9, "unsigned long", "r->len + 1", 6, "int", "n");
/* Two sites' lists: the argument they type differently becomes unknown. */
SITE2("codes", "merged", 6, "int", "a", 8, "long", "b");
SITE2("codes", "merged", 6, "int", "a", 6, "int", "b");
/* Either kind of the compiler's record merges with the other. */
NOTE(1, S("codes") S("mixed") S("2") S("int") S("a") S("long") S("b")
		S("header") S("usdt"));
SITE2("codes", "mixed", 6, "int", "a", 9, "unsigned long", "b");
/* A .d file's record and a header's win over the compiler's, after it or
 * before it. */
SITE1("codes", "dfile", 6, "int", "x");
NOTE(1, S("codes") S("dfile") S("1") S("long") S("count"));
NOTE(1,
     S("codes") S("header") S("1") S("unsigned short") S("port") S("header"));
SITE1("codes", "header", 6, "int", "x");

#ifndef TEXT_RECORDS
/* Later fields are ignored. */
NOTE(3, S("codes") S("later") B("1, 7") S("v") S("future") S("fields"));
/* Malformed: each is skipped with a warning, the listing goes on. */
NOTE(3, S("codes") S("trunc") B("3, 6"));
NOTE(3, S("codes") S("trunc") B("13, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6")
		S("a"));
NOTE(3, S("codes") S("trunc") B("2, 6, 6") S("a"));
NOTE(3, S("codes") S("trunc"));
#else
SITE1("codes", "later", 7, "unsigned int", "v");
#endif

static volatile unsigned char uc = 200;
static volatile bool flag = 1;

int main(void)
{
	/* BPF cannot fault pages in: touch the strings before they are read. */
	static char path[32] = "/page/0.html";
	static const char *text = "text";
	volatile unsigned long len = 41; /* as its record says */
	int id = 7, i = -1, n = 5;
	char c = 'c';
	signed char sc = -2;
	short s = -3;
	unsigned short us = 65535;
	unsigned int ui = 4000000000u;
	long l = -4, a = 1;
	unsigned long ul = 5;
	long long ll = -6;
	unsigned long long ull = 7;
	float f = 1.5f;
	double d = 2.5;
	unsigned short port = 8080;

	printf("%s %s\n", path, text);
	fflush(stdout);
	DTRACE_PROBE2(codes, request, id, path);
	DTRACE_PROBE3(codes, chars, c, sc, uc);
	DTRACE_PROBE3(codes, shorts, s, us, flag);
	DTRACE_PROBE3(codes, ints, i, ui, l);
	DTRACE_PROBE3(codes, longs, ul, ll, ull);
	DTRACE_PROBE3(codes, pointers, text, &path, f);
	DTRACE_PROBE1(codes, dbl, d);
	DTRACE_PROBE3(codes, unknown, i, l, us);
	DTRACE_PROBE2(codes, expr, len + 1, n);
	DTRACE_PROBE2(codes, merged, id, l);
	DTRACE_PROBE2(codes, mixed, id, l);
	DTRACE_PROBE1(codes, dfile, l);
	DTRACE_PROBE1(codes, header, port);
	DTRACE_PROBE1(codes, later, ui);
	DTRACE_PROBE1(codes, trunc, a);
	return 0;
}
