/* The other half, with ours: both kinds of notes in one binary. */
#include <sys/sdt.h>
#include <string.h>

void theirs(int v, const char *s);

static char word[16];

void ours(long v, const char *s)
{
	STAP_PROBE2(mix, ours, v, s);
}

int main(void)
{
	strcpy(word, "shared");
	theirs(-21, word);
	ours(-42L, word);
	return 0;
}
