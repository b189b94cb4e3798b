#!/bin/sh
# The generated header compiles clean, with probes fired and _ENABLED()
# used, as C89..C2x and C++98..C++20 with -Wall -Wextra -pedantic -Werror,
# by gcc and clang, over our <sys/sdt.h>; also after the sed scripts real
# projects run over it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
cd "$T" || fail "cd"

"$DG" -h -s "$DG_DATA/inputs/edge.d" -o edge.h || fail "-h"
cat >use.c <<'C'
#include "edge.h"
struct thing { int provider; char *probe; };
int main(void)
{
	char buf[16] = "x";
	struct thing t = { 1, 0 };
	unsigned long big = 1;
	if (EDGE_WORDS_ENABLED())
		EDGE_WORDS(big, 2, 3, 0);
	EDGE_POINTERS(0, 0, 0);
	EDGE_ARRAYS(buf, 0);
	EDGE_STRUCTS(&t, 0, 1);
	EDGE_NO_ARGS();
	EDGE_VOID_ARGS();
	EDGE_X__TRIPLE(1);
	EDGE_TWELVE(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
	SECOND_WORDS(buf[0]);
	return EDGE_SPREAD_ENABLED() ? 1 : 0;
}
C
cp use.c use.cc
# PostgreSQL/GLib-style post-processing.
sed -e 's/EDGE_/TRACE_EDGE_/g' -e 's/( *char \*/(const char */g' \
	-e 's/define _SDT_HAS_SEMAPHORES 1/undef _SDT_HAS_SEMAPHORES/' \
	-e 's/define STAP_HAS_SEMAPHORES 1/undef STAP_HAS_SEMAPHORES/' \
	edge.h >sed.h
sed -e 's/edge\.h/sed.h/' -e 's/EDGE_/TRACE_EDGE_/g' use.c >sed.c
grep -q 'undef _SDT_HAS_SEMAPHORES' sed.h || fail "sed found no _SDT_HAS_SEMAPHORES define"

fails=0
try() {
	if ! "$@" -Wall -Wextra -pedantic -Werror -I"$SDT_INCLUDE" -I. -c -o x.o \
		>log 2>&1; then
		echo "FAIL: $*" >&2
		head -n 15 log >&2
		fails=$((fails + 1))
	fi
}
ncomp=0
for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	ncomp=$((ncomp + 1))
	for std in c89 gnu89 c99 c11 c17 c2x; do
		try $cc -std=$std use.c
	done
	try $cc -std=c99 -O2 sed.c
done
for cxx in g++ clang++; do
	command -v $cxx >/dev/null || continue
	for std in c++98 c++11 c++14 c++17 c++20; do
		try $cxx -std=$std use.cc
	done
done
[ $ncomp -gt 0 ] || skip "neither gcc nor clang"
[ $fails = 0 ] || fail "$fails compilations failed"
exit 0
