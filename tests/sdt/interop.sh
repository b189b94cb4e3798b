#!/bin/sh
# One binary, some objects built with SystemTap's <sys/sdt.h> and some with
# ours: it links (both use the same .stapsdt.base comdat group), its notes
# read back, and bpftrace traces both kinds of probe.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
need_stap_header
for cc in gcc clang; do
	$cc -O2 $STAP_INC -c \
		"$top_srcdir/tests/sdt/interop-theirs.c" -o "$T/theirs.o" ||
		fail "$cc: SystemTap's half"
	$cc -O2 -I"$SDT_INCLUDE" -Wall -Wextra -c \
		"$top_srcdir/tests/sdt/interop-ours.c" -o "$T/ours.o" || fail "$cc: ours"
	$cc "$T/theirs.o" "$T/ours.o" -o "$T/mix" || fail "$cc: link"
	"$T/mix" || fail "$cc: the program fails"
	"$SDT_NOTES" --no-check "$T/mix" >"$T/notes" || fail "$cc: notes"
	expect_eq "$cc: both probes" "mix:ours
mix:theirs" "$(cut -d" " -f1 "$T/notes" | sort -u)"
	expect_eq "$cc: one .stapsdt.base" 1 \
		"$(readelf -SW "$T/mix" | grep -c ' \.stapsdt\.base ')"
done
need_bpftrace
out=$(bpftrace_run -e "usdt:$T/mix:mix:* { printf(\"%s %d %s\\n\", probe, arg0, str(arg1)); }" -c "$T/mix")
expect_eq "bpftrace on the mixed binary" \
	"usdt:$T/mix:mix:theirs -21 shared
usdt:$T/mix:mix:ours -42 shared" "$(echo "$out" | grep '^usdt:')"
echo "PASS: mixed binary links and traces"
