#!/bin/sh
# Arguments no register holds (struct, union, __int128, long double) stop
# the build with a message that says what to pass instead, in C89 and C11,
# C++98 and C++17, with gcc and clang, and on i686 (frame-slot mode).
. "$top_srcdir/tests/lib.sh"
need_cmd gcc clang

cat >"$T/bad.c" <<'SRC'
#include <sys/sdt.h>
struct point { int x, y; } pt;
union num { int i; float f; } un;
void probe(void) { STAP_PROBE2(bad, arg, 1, BAD); }
SRC
n=0
for bad in pt un "(__int128)1" "(long double)1"; do
	for cc in "gcc -std=c89" "gcc -std=c11" "clang -std=c89" "clang -std=c2x" \
		"g++ -x c++ -std=c++98" "clang++ -x c++ -std=c++98" \
		"g++ -x c++ -std=c++17" "i686-linux-gnu-gcc -std=c99"; do
		command -v ${cc%% *} >/dev/null 2>&1 || continue
		case "$cc:$bad" in i686*:*int128*) continue ;; esac
		if $cc -I"$SDT_INCLUDE" -DBAD="$bad" -c "$T/bad.c" -o "$T/bad.o" \
			>"$T/err" 2>&1; then
			fail "$cc: a probe argument $bad compiles"
		fi
		grep -q 'pass.a.pointer' "$T/err" ||
			{ cat "$T/err"; fail "$cc: no advice for $bad"; }
		n=$((n + 1))
	done
done
echo "PASS: $n refused with advice"
