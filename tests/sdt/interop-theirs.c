/* Half of a program built with SystemTap's <sys/sdt.h> (see interop.sh). */
#include SYSTEMTAP_SDT_H

void theirs(int v, const char *s)
{
	STAP_PROBE2(mix, theirs, v, s);
}
