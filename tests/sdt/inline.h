/* A C++ inline function with a probe, used from two translation units. */
#include <sys/sdt.h>

inline int probed_twice(int v)
{
	STAP_PROBE1(inl, twice, v);
	return v + 1;
}
int from_a(int v);
int from_b(int v);
