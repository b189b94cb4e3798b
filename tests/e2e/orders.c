/* Fires tests/e2e/orders.d's probes with structs of known contents and
   writes, one line per struct, what a tracer printing every field should
   see, to the file named by argv[1]. */
#include <stdio.h>
#include <string.h>

struct item {
	int sku;
	short qty;
	unsigned char tag[3];
};

struct order {
	long id;
	char customer[16];
	struct item first;
	int codes[3];
	const char *note;
	unsigned flags : 3, level : 5;
	signed int delta : 7;
	double price; /* not printed: bpftrace reads no floats */
	unsigned char tail;
	void *next;
};

typedef struct {
	unsigned long long serial;
	char who[8];
	union {
		int as_int;
		char as_chars[4];
	} u;
	short weight;
} ticket_t;

union value {
	long long wide;
	unsigned short halves[4];
};

#include "orders.h"

int main(int argc, char **argv)
{
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;
	struct order o;
	ticket_t t;
	union value v;
	static const char note[] = "fragile, this side up";
	static const char label[] = "wide";

	if (!out)
		return 1;
	memset(&o, 0, sizeof(o));
	o.id = -1234567890123L;
	strcpy(o.customer, "alice");
	o.first.sku = 4242;
	o.first.qty = -3;
	memcpy(o.first.tag, "\x01\x02\xff", 3);
	o.codes[0] = 7, o.codes[1] = -8, o.codes[2] = 9;
	o.note = note;
	o.flags = 5, o.level = 17, o.delta = -33;
	o.price = 9.5;
	o.tail = 200;
	o.next = (void *)0x1000;
	memset(&t, 0, sizeof(t));
	t.serial = 18446744073709551615ULL;
	strcpy(t.who, "bob");
	t.u.as_int = 0x00636261; /* "abc" */
	t.weight = 31000;
	v.halves[0] = 1, v.halves[1] = 2, v.halves[2] = 3, v.halves[3] = 4;
	/* BPF reads only pages already faulted in: touch the strings. */
	fprintf(out, "# %s %s\n", note, label);
	SO_ORDER(&o, 3);
	fprintf(out,
		"so:order o: id=-1234567890123 customer=alice first.sku=4242 "
		"first.qty=-3 first.tag=[1,2,255] codes=[7,-8,9] note=%s "
		"flags=5 level=17 delta=-33 tail=200 next=0x1000\n",
		note);
	SO_TICKET(&t);
	fprintf(out, "so:ticket t: serial=18446744073709551615 who=bob "
		     "u.as_int=6513249 u.as_chars=abc weight=31000\n");
	SO_VALUE(&v, label);
	fprintf(out, "so:value v: wide=%lld halves=[1,2,3,4]\n", v.wide);
	return fclose(out) != 0;
}
