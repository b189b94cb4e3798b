#!/bin/sh
# dtrace-gen -h and -G against SystemTap's dtrace on 1, 100, 2000 and
# 100000 probes, in the same run: median wall time, and the ratio. Also
# the per-probe cost, which should stay flat (linear time). SystemTap's
# dtrace is skipped at 100000 probes (minutes per run); the table says so.
# Then the 100-probe header itself: -h against `cp' of its own output
# (writing it should cost no more than copying it), its size, and the
# time to compile a file that includes it, against SystemTap's header.
. "$top_srcdir/bench/lib.sh"

DG=$top_builddir/dtrace-gen/dtrace-gen
STAP=/usr/bin/dtrace
[ -x "$STAP" ] || STAP=
cd "$B" || exit 1

gen() {
	awk -v n="$1" 'BEGIN {
		print "provider bench {"
		for (i = 0; i < n; i++)
			printf "\tprobe p%d__event(const char *name, unsigned long long id, int n);\n", i
		print "};"
	}' >"p$1.d"
}

header "dtrace-gen vs SystemTap dtrace (median wall time)" "systemtap"
for n in 1 100 2000 100000; do
	gen $n
	# Ours takes about a millisecond at 100 probes, in which the machine's
	# noise is large: many runs.
	runs=201
	[ $n -ge 2000 ] && runs=5
	[ $n -ge 100000 ] && runs=3
	for mode in h G; do
		ours=$(median_ms $runs "$DG" -$mode -s "p$n.d" -o "out.$mode")
		ref=absent
		[ -n "$STAP" ] && ref="not run"
		if [ -n "$STAP" ] && [ $n -le 2000 ]; then
			ref=$(median_ms 3 "$STAP" -$mode -s "p$n.d" -o "ref.$mode")
		fi
		row "-$mode, $n probes" "$ours" "$ref" ms
		per=$(awk -v t="$ours" -v n=$n 'BEGIN { printf "%.3f", t * 1000 / n }')
		row "  -$mode per probe" "$per" - us
	done
	[ $n = 100 ] || continue
	# A clean build has no earlier output to replace; replacing one costs
	# the file system a flush (ext4 forces out the new file's blocks when
	# it is renamed over an old one), for both tools alike.
	for mode in h G; do
		ours=$(PREPARE="rm -f new.$mode" median_ms $runs "$DG" -$mode -s "p$n.d" -o "new.$mode")
		ref=absent
		[ -n "$STAP" ] && ref=$(PREPARE="rm -f refnew.$mode" median_ms 3 "$STAP" -$mode -s "p$n.d" -o "refnew.$mode")
		row "-$mode, $n probes, new output" "$ours" "$ref" ms
	done
done
[ -n "$STAP" ] && echo "(SystemTap's dtrace not run at 100000 probes: minutes per run)"

header "dtrace-gen -h against cp of its output (median wall time)" "cp"
"$DG" -h -s p100.d -o h100.h || exit 1
ours=$(median_ms 301 "$DG" -h -s p100.d -o out.h)
ref=$(median_ms 301 cp h100.h copy.h)
row "-h, 100 probes" "$ours" "$ref" ms ">=1x"

header "the 100-probe header" "systemtap"
ref=absent
[ -n "$STAP" ] && "$STAP" -h -s p100.d -o ref100.h >/dev/null 2>&1 &&
	ref=$(wc -c <ref100.h)
row "size" "$(wc -c <h100.h)" "$ref" bytes "<=30000"
printf '#include "h100.h"\nint main(void) { BENCH_P1_EVENT("x", 1, 2); return 0; }\n' >use.c
sed 's/h100.h/ref100.h/' use.c >use-ref.c
ours=$(median_ms 21 $CC -O2 -I"$top_srcdir/include" -c use.c -o use.o)
ref=absent
# SystemTap's header with SystemTap's <sys/sdt.h> (no -I).
[ -s ref100.h ] && ref=$(median_ms 21 $CC -O2 -c use-ref.c -o use-ref.o)
row "compile a file including it (-O2)" "$ours" "$ref" ms
[ -z "$STAP" ] && echo "(SystemTap's dtrace reference absent: systemtap-sdt-dev is not installed)"
exit 0
