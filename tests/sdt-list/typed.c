/* SPDX-License-Identifier: MIT */
/*
 * Probes with sdtkit type records (.note.sdtkit), written here by hand in
 * the format dtrace-gen -G emits, so the sdt-list tests do not depend on
 * the generator: a record per probe, a repeated identical one (as after
 * linking several objects), one that disagrees, one whose argument count
 * is not the probe's, a malformed one, one of an unknown note type, and a
 * probe with no record. main() fires each probe once with known values
 * (the tests check what tracers print), or with `loop', every 10 ms for
 * at most 60 s. The header's own records (of the types and names the
 * compiler sees) are left out: these are the only ones.
 */
#define SDTKIT_NO_TYPES
#include <sys/sdt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sdtkit-note.h"

NOTE(1,
     S("sdtlist_shop") S("order__start") S("3") S("const char *") S("customer")
	     S("int") S("items") S("unsigned long long") S("cents"));
NOTE(1,
     S("sdtlist_shop") S("order__start") S("3") S("const char *") S("customer")
	     S("int") S("items") S("unsigned long long") S("cents"));
NOTE(1, S("sdtlist_shop") S("refund") S("2") S("long") S("amount")
		S("struct conn *") S(""));
NOTE(1, S("sdtlist_shop") S("refund") S("2") S("int") S("amount") S("void *")
		S("conn"));
NOTE(1, S("sdtlist_shop") S("mismatch") S("3") S("int") S("a") S("int") S("b")
		S("int") S("c"));
NOTE(1, S("sdtlist_shop") S("bad") S("x") S("int") S("a"));
NOTE(2, S("sdtlist_shop") S("untyped") S("2") S("char *") S("nope") S("char *")
		S("nope"));
NOTE(1, S("sdtlist_shop") S("many") S("8") S("long") S("a") S("long") S("b")
		S("long") S("c") S("long") S("d") S("long") S("e") S("long")
			S("f") S("long") S("g") S("long") S("h"));

struct conn {
	int fd;
};

static volatile long amount = -42;
static volatile unsigned char small = 200;
static volatile short neg = -5;

static void fire(const char *customer, int items, unsigned long long cents)
{
	static struct conn c = { 3 };

	DTRACE_PROBE3(sdtlist_shop, order__start, customer, items, cents);
	DTRACE_PROBE2(sdtlist_shop, refund, amount, &c);
	DTRACE_PROBE1(sdtlist_shop, mismatch, items);
	DTRACE_PROBE1(sdtlist_shop, bad, items);
	DTRACE_PROBE2(sdtlist_shop, untyped, small, neg);
	DTRACE_PROBE8(sdtlist_shop, many, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
}

int main(int argc, char **argv)
{
	/* BPF cannot fault pages in: touch the string before it is read. */
	static char customer[] = "alice";
	int loop = argc > 1 && !strcmp(argv[1], "loop");

	printf("%s\n", customer);
	fflush(stdout);
	for (int i = 0; i < (loop ? 6000 : 1); i++) {
		fire(customer, -3, 12345678901234567890ull);
		if (loop)
			usleep(10000);
	}
	return 0;
}
