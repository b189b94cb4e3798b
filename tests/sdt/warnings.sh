#!/bin/sh
# No new warnings: each case of tests/sdt/awkward.c (a pointer after free,
# bit-fields, arrays, function pointers, members, const volatile, __int128,
# enums, locals that look unset, ...) built with SystemTap's <sys/sdt.h>
# as a user's build finds it, a system header (need_stap_header: -isystem,
# ahead of ours where that is installed), and with ours through -I, where
# its own warnings show. gcc, g++, clang and clang++ at -O0 to -O3 under
# -Wall -Wextra: ours compiles every case and gives no warning (place and
# kind) that theirs does not give. The header's guard stays narrow: a local
# of the user's read while unset, next to a probe, is still warned about.
. "$top_srcdir/tests/lib.sh"
need_cmd gcc g++ clang clang++
LC_ALL=C
export LC_ALL
need_stap_header
SRC=$top_srcdir/tests/sdt/awkward.c
cases=$(sed -n 's/^#if.*CASE_\([a-z0-9_]*\).*/\1/p' "$SRC")
[ -n "$cases" ] || fail "no cases in $SRC"

# The warnings of one build, one "FILE:LINE [-Wflag]" per line: the column
# and repeats (one per template instance) do not make a new warning.
warnings() {
	sed -n 's/^\([^ :]*\):\([0-9]*\):[0-9]*: warning: .*\(\[-W[^]]*\]\)$/\1:\2 \3/p' "$1" |
		sed 's|^.*/||' | sort -u
}

# The user's own unset local beside a probe: ours must still warn (line 6).
cat >"$T/near.c" <<'EOF'
#include <sys/sdt.h>
int near(int a)
{
	int u;
	STAP_PROBE1(app, near, a);
	return u + a;
}
EOF

builds=0 theirs_refuse=0
for cc in gcc clang g++ clang++; do
	case $cc in *++) lang="-x c++" ;; *) lang= ;; esac
	for o in -O0 -O1 -O2 -O3; do
		$cc -I"$SDT_INCLUDE" $lang $o -Wall -Wextra -c "$T/near.c" \
			-o "$T/near.o" >"$T/near.log" 2>&1 ||
			{ cat "$T/near.log"; fail "$cc $o: near.c does not compile"; }
		warnings "$T/near.log" | grep -q '^near.c:6 \[-Wuninitialized\]$' ||
			{ cat "$T/near.log"; fail "$cc $o: the user's unset local beside a probe is not warned about"; }
		for c in $cases; do
			what="$cc $o $c"
			flags="$lang $o -Wall -Wextra -DCASE_$c -c $SRC"
			if $cc $STAP_INC $flags -o "$T/theirs.o" >"$T/theirs.log" 2>&1; then
				warnings "$T/theirs.log" >"$T/theirs.w"
			else
				# SystemTap's refuses it (bit-fields in C): any warning is new.
				theirs_refuse=$((theirs_refuse + 1))
				: >"$T/theirs.w"
			fi
			$cc -I"$SDT_INCLUDE" $flags -o "$T/ours.o" >"$T/ours.log" 2>&1 ||
				{ cat "$T/ours.log"; fail "$what: ours does not compile"; }
			grep -q 'error' "$T/ours.log" && { cat "$T/ours.log"; fail "$what: an error"; }
			warnings "$T/ours.log" >"$T/ours.w"
			new=$(comm -23 "$T/ours.w" "$T/theirs.w")
			[ -z "$new" ] || { cat "$T/ours.log"; fail "$what: new warnings: $new"; }
			"$SDT_NOTES" "$T/ours.o" >/dev/null ||
				fail "$what: the validator refuses a spec"
			builds=$((builds + 1))
		done
	done
done
echo "PASS: $builds builds, no warning SystemTap's header does not give ($theirs_refuse its header refuses)"
