/*
 * A struct ordinary C declares that once made printed programs wrong
 * (tests/e2e/struct-cases.sh): a field named like the declaration's
 * padding, a bit-field of enum type, a field named like a bpftrace
 * keyword, an anonymous union with a member named like a made-up one, a
 * char array longer than a printf copies, a flexible array.
 */
#include <string.h>
#include "tricky.h"
enum state { IDLE, BUSY = 200 };
struct tricky {
	char tag;
	int __pad0;
	enum state st : 8;
	int unroll;
	union {
		int __anon4;
		short s;
	};
	char big[100];
	long tail[];
};
static struct tricky t = { 'Q', -5, BUSY, 77, { 1234 }, "" };
int main(void)
{
	strcpy(t.big, "a long string of more than sixty-four bytes, so only "
		      "its first 63 are read.");
	CT_TRICKY(&t);
	return 0;
}
