/* Half of a program built with SystemTap's <sys/sdt.h> (see interop.sh). */
#include <sys/sdt.h>

void theirs(int v, const char *s)
{
	STAP_PROBE2(mix, theirs, v, s);
}
