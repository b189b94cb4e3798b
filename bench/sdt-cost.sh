#!/bin/sh
# The untraced cost of a probe site, ours against SystemTap's <sys/sdt.h>:
# instructions per loop iteration above a loop without a probe (callgrind,
# stable from run to run), and the .text bytes a probe site adds, for
# probes with 0, 2, 6 and 12 arguments compiled with -O2. Then the x86_64
# fast site (SDTKIT_FAST_ATTACH, docs/fast-attach.md) against our 1-byte
# nop: instructions as above, and time per loop iteration (the best of 7
# timed runs: these machines have no cycle counter for perf).
. "$top_srcdir/bench/lib.sh"
stap_header "$B/stap-inc"
theirs=$B/stap-inc/sys/sdt.h
if [ -z "$STAP_INC" ] || ! command -v valgrind >/dev/null 2>&1; then
	echo "sdt-cost: needs valgrind and SystemTap's sys/sdt.h (systemtap-sdt-dev)"
	exit 0
fi
ours=$top_srcdir/include/sys/sdt.h
src=$top_srcdir/bench/sdt-loop.c
n=1000000

build() { # NAME HEADER ARGS [FLAGS]
	$CC -O2 $4 -DSDT_HEADER="\"$2\"" -DARGS=$3 "$src" -o "$B/$1" &&
		$CC -O2 $4 -DSDT_HEADER="\"$2\"" -DARGS=$3 -c "$src" -o "$B/$1.o"
}
ir_per() { # IR: instructions per iteration above the baseline's
	awk -v a="$1" -v b="$base_ir" -v n=$n 'BEGIN { printf "%.2f", (a - b) / n }'
}
ns_pair() { # A B: "NS-A NS-B", ns per loop iteration, each the best of 11
	# runs, taken in turns so that a busy moment hits both alike
	for r in 1 2 3 4 5 6 7 8 9 10 11; do
		echo "a $("$B/$1" 20000000 t)"
		echo "b $("$B/$2" 20000000 t)"
	done | awk '$2 == "ns" && (!($1 in m) || $3 < m[$1]) { m[$1] = $3 }
		END { print m["a"], m["b"] }'
}
text() { size -A "$1" | awk '$1 ~ /^\.text/ { t += $2 } END { print t }'; }

build base "$ours" -1 || exit 1
base_ir=$(callgrind_ir "$B/base" $n)
base_text=$(text "$B/base.o")

header "untraced probe cost, $CC -O2, per iteration" "systemtap"
for a in 0 2 6 12; do
	build ours$a "$ours" $a && build theirs$a "$theirs" $a "$STAP_INC" || exit 1
	o=$(callgrind_ir "$B/ours$a" $n)
	t=$(callgrind_ir "$B/theirs$a" $n)
	row "instructions, $a args" "$(ir_per "$o")" "$(ir_per "$t")" insn
	row "text bytes per site, $a args" \
		$(($(text "$B/ours$a.o") - base_text)) \
		$(($(text "$B/theirs$a.o") - base_text)) bytes
done

[ "$(uname -m)" = x86_64 ] || exit 0
header "untraced fast site (SDTKIT_FAST_ATTACH), $CC -O2, per iteration" "1-byte nop"
# The same loop twice: how far apart two timings of one program fall here.
# shellcheck disable=SC2046
row "ns per iteration, no probe (noise)" $(ns_pair base base) ns
for a in 0 2 6; do
	build fast$a "$ours" $a -DSDTKIT_FAST_ATTACH || exit 1
	row "instructions, $a args" "$(ir_per "$(callgrind_ir "$B/fast$a" $n)")" \
		"$(ir_per "$(callgrind_ir "$B/ours$a" $n)")" insn
	# shellcheck disable=SC2046
	row "ns per iteration, $a args" $(ns_pair fast$a ours$a) ns
	row "text bytes per site, $a args" \
		$(($(text "$B/fast$a.o") - base_text)) \
		$(($(text "$B/ours$a.o") - base_text)) bytes
done
# Behind _ENABLED() the site does not run until a tracer sets the semaphore.
build fast102 "$ours" 102 -DSDTKIT_FAST_ATTACH && build ours102 "$ours" 102 || exit 1
row "instructions, 2 args, _ENABLED()" \
	"$(ir_per "$(callgrind_ir "$B/fast102" $n)")" \
	"$(ir_per "$(callgrind_ir "$B/ours102" $n)")" insn
# shellcheck disable=SC2046
row "ns per iteration, 2 args, _ENABLED()" $(ns_pair fast102 ours102) ns
