#!/bin/sh
# A generated header is compiled in every file that includes it: 100
# probes of three arguments (bench/dtrace-gen-speed.sh's provider) take at
# most 30 000 bytes, where each probe's own text is its comment and three
# one-line macro uses. Probes that share no argument list still cost no
# more than SystemTap's dtrace writes for the same file (55 623 bytes,
# without any type records).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/dtrace-gen/lib.sh"
cd "$T" || fail "cd"

awk 'BEGIN { print "provider bench {"
	for (i = 0; i < 100; i++)
		printf "\tprobe p%d__event(const char *name, unsigned long long id, int n);\n", i
	print "};" }' >same.d
awk 'BEGIN { print "provider bench {"
	for (i = 0; i < 100; i++)
		printf "\tprobe p%d__event(const char *name%d, unsigned long long id%d, int n%d);\n", i, i, i, i
	print "};" }' >distinct.d
"$DG" -h -s same.d -o same.h && "$DG" -h -s distinct.d -o distinct.h || fail "-h"
size=$(wc -c <same.h)
note "100 probes: $size bytes; 100 argument lists: $(wc -c <distinct.h) bytes"
[ "$size" -le 30000 ] || fail "100 probes take $size bytes (at most 30000)"
[ "$(wc -c <distinct.h)" -le 55623 ] ||
	fail "100 distinct probes take $(wc -c <distinct.h) bytes (at most 55623)"
# Both still compile, warning-free, and fire.
printf '#include "%s"\nint main(void) { BENCH_P99_EVENT("x", 1ULL, 2); return BENCH_P0_EVENT_ENABLED(); }\n' \
	same.h >same.c
sed 's/same.h/distinct.h/' same.c >distinct.c
for f in same distinct; do
	$CC -O2 -Wall -Wextra -Werror -I"$SDT_INCLUDE" -I. -c $f.c -o $f.o ||
		fail "$f.h does not compile"
done
exit 0
